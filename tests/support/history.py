"""Runs of one test set, derived from the bundled plan sample (issue 14's fixtures).

- run A: the sample as it is (2026-03-05).
- run B, a day later: some items broken (an 오류, an empty reply, a wrong UI value), some
  fixed (two failures of round 1 answered as in round 2), round 2 three times slower.
- run C, two days later: B without two queries, with two new ones.
- run D, before all of them (2026-03-01): another test set (new Query IDs, other texts).
"""

from __future__ import annotations

import csv
import json
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from support.warehouse import SAMPLES

PLAN = SAMPLES / "plan_agent_sample.csv"
FILES = {"A": "plan_agent_run_a.csv", "B": "plan_agent_run_b.csv",
         "C": "plan_agent_run_c.csv", "D": "plan_agent_other_set.csv"}
# records of the sample (1-based) and what run B does to them
BROKEN_BY_ERROR, BROKEN_EMPTY, BROKEN_UI = 1, 4, 24
FIXED = {8: 28, 13: 33}  # the round-1 failure answered as its round-2 twin
SLOWER = range(21, 41)
REMOVED_QUERIES = ("9f291254", "928f1ae1")  # Query ID prefixes dropped in run C
NEW_QUERY_TEXTS = ("채용 공고 마감일을 하루 늦춰줘", "지원서 접수 알림 메일을 켜줘")


def read() -> tuple[list[str], list[dict[str, str]]]:
    with PLAN.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def write(path: Path, header: list[str], rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, header, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def shifted(rows: list[dict[str, str]], days: int) -> list[dict[str, str]]:
    moved = []
    for row in rows:
        when = datetime.fromisoformat(row["실행시각"]) + timedelta(days=days)
        moved.append({**row, "실행시각": when.isoformat(timespec="microseconds"),
                      "Item ID": str(uuid.uuid5(uuid.NAMESPACE_OID, f"{days}:{row['Item ID']}"))})
    return moved


def payload(row: dict[str, str]) -> dict:
    return json.loads(row["Raw JSON"])


def run_b(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    b = [dict(r) for r in rows]
    b[BROKEN_BY_ERROR - 1]["오류"] = "HTTP 503: upstream busy"
    empty = payload(b[BROKEN_EMPTY - 1])
    empty.update(assistantMessage="", dataUIList=[])
    b[BROKEN_EMPTY - 1]["Raw JSON"] = json.dumps(empty, ensure_ascii=False)
    wrong = payload(b[BROKEN_UI - 1])
    for entry in wrong["dataUIList"]:
        entry["uiValue"]["formType"] = "ACTION"
    b[BROKEN_UI - 1]["Raw JSON"] = json.dumps(wrong, ensure_ascii=False)
    for failed, twin in FIXED.items():
        b[failed - 1]["Raw JSON"] = rows[twin - 1]["Raw JSON"]
    for record in SLOWER:
        try:
            slow = payload(b[record - 1])
        except ValueError:  # the sample's Raw JSON cut at 32,767 characters
            continue
        if isinstance(slow.get("responseTimeSec"), (int, float)):
            slow["responseTimeSec"] = round(slow["responseTimeSec"] * 3, 4)
            b[record - 1]["Raw JSON"] = json.dumps(slow, ensure_ascii=False)
    return b


def run_c(b: list[dict[str, str]]) -> list[dict[str, str]]:
    kept = [r for r in b if not r["Query ID"].startswith(REMOVED_QUERIES)]
    added = []
    for n, text in enumerate(NEW_QUERY_TEXTS):
        source = [r for r in b if r["Query ID"].startswith("2ce8d543")]
        query_id = str(uuid.uuid5(uuid.NAMESPACE_OID, text))
        for row in source:
            added.append({**row, "Query ID": query_id, "질의": text,
                          "Item ID": str(uuid.uuid5(uuid.NAMESPACE_OID, f"{n}{row['Item ID']}"))})
    return kept + added


def other_set(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    ids: dict[str, str] = {}
    other = []
    for row in rows:
        query_id = ids.setdefault(row["Query ID"], str(uuid.uuid5(uuid.NAMESPACE_URL,
                                                                  row["Query ID"])))
        other.append({**row, "Query ID": query_id, "질의": row["질의"] + " (다른 세트)"})
    return other


def write_runs(folder: Path, runs: str = "ABCD") -> dict[str, Path]:
    header, rows = read()
    b = run_b(rows)
    made = {
        "A": rows,
        "B": shifted(b, 1),
        "C": shifted(run_c(b), 2),
        "D": shifted(other_set(rows), -4),
    }
    return {key: write(folder / FILES[key], header, made[key]) for key in runs}
