"""The plan-agent rules (SCORING §0-§2) in plain Python: csv + json, one row at a time.

This is the yardstick the warehouse is compared with, so it is written the way a careful
engineer would without a database: no caching tricks, no parallelism. It is one module of
about 500 lines so that the whole yardstick reads top to bottom as one program. It reads the
same configuration as the warehouse (seeds/check_paths.csv, seeds/check_key_aliases.csv,
seeds/export_columns.csv and the vars in dbt_project.yml) and mirrors the SQL where the
rules leave room: DuckDB's trim() strips Unicode space separators but not tabs or newlines,
and RE2's \\s, \\w and \\b are ASCII-only, so the helpers below do the same.

    PYTHONPATH=tools python -m agent_bench.pyscore INPUT_DIR --out figures.json [--project-dir D]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import sys
import time
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml

# the checkout this bench comes from (tools/agent_bench/pyscore.py): the default project
TOOLS_DIR = Path(__file__).resolve().parents[1]
PROJECT_DIR = TOOLS_DIR.parent

# DuckDB trim(): Unicode space separators (Zs) only.
_ZS = "".join(chr(c) for c in range(0x3001) if unicodedata.category(chr(c)) == "Zs")
_RE2_SPACE = "[\\t\\n\\f\\r ]"  # RE2 \s (Python's \s would also take \v and Unicode spaces)
_FIELDS = "(assistantMessage|formType|actionType|multiSelectAllowYn|dataKey|buttonKey|buttonUrl)"
_CHECK_LINE = re.compile(r"^@check\b", re.I | re.A)
_CHECK_PREFIX = re.compile(r"^@check" + _RE2_SPACE + "*", re.I)
_KEY_LINE = re.compile(r"^(?:[0-9]+[.)]" + _RE2_SPACE + r"*)?[A-Za-z]+" + _RE2_SPACE + "*[=:]")
_SEGMENT = re.compile(
    "^" + _RE2_SPACE + r"*(?:[0-9]+[.)]" + _RE2_SPACE + r"*)?([A-Za-z]+)" + _RE2_SPACE
    + "*[=:](.*)$"
)
_PROSE_FIELD = re.compile(_FIELDS)
_QUOTED = re.compile("[\"“”]([^\"“”]*)[\"“”]")
_MULTI_SELECT = re.compile(r"multiSelectAllowYn\W*(true|false|Y|N)\b", re.A)
_SPACES = re.compile(_RE2_SPACE + "+")
_ROUND = re.compile(r"([0-9]+)/([0-9]+)")
_FULL_WIDTH = str.maketrans("０１２３４５６７８９／", "0123456789/")
_MISSING = ("", "nan", "none", "null")
NO_ROUND = "(no round)"  # JSON keys cannot be null
_TRUE = ("true", "y", "yes", "1")
_FALSE = ("false", "n", "no", "0")


def trim(text: str) -> str:
    return text.strip(_ZS)


def clean(text: str | None) -> str | None:
    """Exports write missing values as '', spaces or the text 'nan' (macro clean_text)."""
    if text is None or trim(text).lower() in _MISSING:
        return None
    return text


def json_text(value: Any) -> str | None:
    """A JSON value as text: strings as they are, null as None, the rest as compact JSON."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def seconds_of(value: Any, limit: float = math.inf) -> float | None:
    """responseTimeSec: a number or a numeric string, finite, not negative, at most `limit`
    (var max_response_time_sec)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        seconds = float(value)
    elif isinstance(value, str):
        try:
            seconds = float(trim(value))
        except ValueError:
            return None
    else:
        return None
    return seconds if math.isfinite(seconds) and 0 <= seconds <= limit else None


def round_label_of(label: str | None) -> str | None:
    """방/반복 as `room/repeat` numbers (macro round_label_text): full-width digits and
    slash made ASCII, spaces removed, leading zeros dropped; None unless two numbers that
    fit DuckDB's integer."""
    if label is None:
        return None
    text = re.sub(r"[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]+", "",
                  label.translate(_FULL_WIDTH))
    found = _ROUND.fullmatch(text)
    if not found or max(int(found.group(1)), int(found.group(2))) > 2**31 - 1:
        return None
    return f"{int(found.group(1))}/{int(found.group(2))}"


def as_bool(text: str | None) -> bool | None:
    if text is None:
        return None
    folded = trim(text).lower()
    return True if folded in _TRUE else False if folded in _FALSE else None


def squash(text: str) -> str:
    return _SPACES.sub("", unicodedata.normalize("NFC", text)).lower()


def passes(actual: str | None, expected: str, comparison: str) -> bool:
    """One check against one value (macro check_passes); a missing value fails."""
    if actual is None:
        return False
    if comparison == "contains_normalized":
        return squash(expected) in squash(actual)
    if comparison == "equals_ci":
        return trim(actual).lower() == trim(expected).lower()
    if comparison == "equals":
        return trim(actual) == trim(expected)
    if comparison == "boolean":
        left, right = as_bool(actual), as_bool(expected)
        return left is not None and left == right
    if comparison == "contains":
        return expected in actual or expected in unquote(actual)
    return False


def speed_points(seconds: float | None, bounds: list[float]) -> int | None:
    if seconds is None:
        return None
    for index, bound in enumerate(bounds):
        if seconds <= bound:
            return 5 - index
    return 0


def pass_ratio_points(ratio: float) -> int:
    if ratio >= 1.0:
        return 5
    if ratio >= 0.75:
        return 4
    if ratio >= 0.5:
        return 3
    if ratio >= 0.25:
        return 2
    return 1 if ratio > 0 else 0


@dataclass(frozen=True)
class Rules:
    columns: dict[str, str]  # header name -> column name (export_columns seed)
    aliases: dict[str, str]  # lower-case key -> check kind (check_key_aliases seed)
    # kind -> [(target, json keys, comparison)]; a check passes when any of its paths does
    paths: dict[str, list[tuple[str, list[str], str]]]
    speed_bounds: list[float]  # single rubric, inclusive upper bounds for 5..1
    pass_score: float
    # (pattern, match, meaning) of seeds/llm_statuses.csv
    llm_statuses: list[tuple[str, str, str]]
    max_seconds: float


def _seed(project_dir: Path, name: str) -> list[dict[str, str]]:
    with (project_dir / "seeds" / f"{name}.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def load_rules(project_dir: Path = PROJECT_DIR) -> Rules:
    """The same configuration the warehouse reads, so both score by the same settings."""
    project = yaml.safe_load((project_dir / "dbt_project.yml").read_text(encoding="utf-8"))
    variables = project.get("vars", {})
    paths: dict[str, list[tuple[str, list[str], str]]] = defaultdict(list)
    for row in _seed(project_dir, "check_paths"):
        keys = [key for key in (row["json_path"] or "").removeprefix("$").split(".") if key]
        paths[row["check_kind"]].append((row["target"], keys, row["comparison"]))
    return Rules(
        columns={
            row["header_name"]: row["column_name"] for row in _seed(project_dir, "export_columns")
        },
        aliases={
            row["key_alias"]: row["check_kind"]
            for row in _seed(project_dir, "check_key_aliases")
        },
        paths=dict(paths),
        speed_bounds=[float(b) for b in variables["speed_rubrics"]["single"]],
        pass_score=float(variables["consistency_pass_score"]),
        llm_statuses=[
            (row["pattern"].lower(), row["match"], row["meaning"])
            for row in _seed(project_dir, "llm_statuses")
        ],
        max_seconds=float(variables["max_response_time_sec"]),
    )


def parse_checks(expected: str, rules: Rules) -> list[tuple[str, str]]:
    """(kind, expected value) per check in 기대결과, in line order (SCORING §2.1)."""
    found: list[tuple[str, str | None]] = []
    stripped = trim(expected)
    try:
        as_object = json.loads(stripped)
    except ValueError:
        as_object = None
    if isinstance(as_object, dict):
        found = [(key, json_text(value)) for key, value in as_object.items()]
    else:
        for line in (trim(text) for text in expected.replace("\r", "").split("\n")):
            if _CHECK_LINE.search(line) or _KEY_LINE.search(line):
                for segment in _CHECK_PREFIX.sub("", line, count=1).split(";"):
                    matched = _SEGMENT.search(segment)
                    if matched:
                        # DuckDB trim(value, chars): only these characters, not spaces
                        found.append((matched.group(1), matched.group(2).strip(' "“”\'`')))
            else:
                field = _PROSE_FIELD.search(line)
                if field:
                    quoted = _QUOTED.search(line)
                    value = quoted.group(1) if quoted and quoted.group(1) else None
                    if value is None:
                        flag = _MULTI_SELECT.search(line)
                        value = flag.group(1) if flag and flag.group(1) else None
                    found.append((field.group(1), value))
    checks = []
    for key, value in found:
        kind = rules.aliases.get(key.lower())
        if kind is not None and value is not None and trim(value) != "":
            checks.append((kind, value))
    return checks


def ui_value_of(entry: Any) -> Any:
    """dataUIList[*].uiValue; a uiValue sent as a JSON string is parsed."""
    value = entry.get("uiValue") if isinstance(entry, dict) else None
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def extract_string(value: Any, keys: list[str]) -> str | None:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return json_text(value)


def count_passed(
    checks: list[tuple[str, str]], message: str | None, ui_values: list[Any] | None, rules: Rules
) -> int:
    """Message checks on assistantMessage; UI checks on the one dataUIList entry that passes
    the most of them, first on ties (SCORING §2.2)."""
    passed = 0
    ui_checks = []
    for kind, expected in checks:
        paths = rules.paths.get(kind, [])
        if any(target == "message" for target, _, _ in paths):
            passed += any(passes(message, expected, comparison) for _, _, comparison in paths)
        elif paths:
            ui_checks.append((expected, paths))
    if ui_checks and ui_values:
        passed += max(
            sum(
                any(
                    passes(extract_string(value, keys), expected, comparison)
                    for _, keys, comparison in paths
                )
                for expected, paths in ui_checks
            )
            for value in ui_values
        )
    return passed


@dataclass
class Item:
    round_label: str | None
    query_id: str | None
    status: str
    score_source: str
    intent: float | None
    stability: int
    seconds: float | None
    speed: int | None
    check_count: int
    check_passed: int


def score_row(row: dict[str, str | None], rules: Rules) -> Item:
    """One export row to its status and scores (SCORING §2.3)."""
    raw_text = clean(row.get("raw_json"))
    try:
        raw = json.loads(raw_text) if raw_text is not None else None
    except ValueError:
        raw = None
    valid = isinstance(raw, dict)
    fields: dict[str, Any] = raw if valid else {}
    message = json_text(fields.get("assistantMessage"))
    ui_list = fields.get("dataUIList")
    ui_values = [ui_value_of(entry) for entry in ui_list] if isinstance(ui_list, list) else None
    raw_error = json_text(fields.get("error"))
    seconds = seconds_of(fields.get("responseTimeSec"), rules.max_seconds)

    expected = clean(row.get("expected_result"))
    checks = parse_checks(expected, rules) if expected is not None else []
    check_passed = count_passed(checks, message, ui_values, rules) if checks else 0

    error_text = clean(row.get("error_text"))
    failed = (
        error_text is not None
        or raw_text is None
        or not valid
        or (raw_error is not None and trim(raw_error) != "")
    )
    if failed:
        status = "error"
    elif trim(message or "") == "" and not ui_values:
        status = "empty"
    elif not checks:
        status = "no_checks"
    else:
        status = "ok"

    heuristic = pass_ratio_points(check_passed / len(checks)) if checks else None
    llm_score: float | None = None
    llm_text = clean(row.get("llm_score"))
    if llm_text is not None:
        try:
            candidate = float(llm_text)
        except ValueError:
            candidate = math.nan
        status_class = llm_status_class(clean(row.get("llm_status")), rules)
        if 0 <= candidate <= 5 and status_class != "failed":
            llm_score = candidate
    if status in ("error", "empty"):
        source, intent = "gate", 0.0
    elif llm_score is not None:
        source, intent = "llm", llm_score
    elif heuristic is not None:
        source, intent = "heuristic", float(heuristic)
    else:
        source, intent = "none", None
    return Item(
        round_label=round_label_of(clean(row.get("round_label"))),
        query_id=clean(row.get("query_id")),
        status=status,
        score_source=source,
        intent=intent,
        stability=0 if status in ("error", "empty") else 5,
        seconds=seconds,
        speed=speed_points(seconds, rules.speed_bounds),
        check_count=len(checks),
        check_passed=check_passed,
    )


def llm_status_class(status: str | None, rules: Rules) -> str:
    """What LLM 상태 means by seeds/llm_statuses.csv: the longest matching pattern."""
    if status is None:
        return "not_evaluated"
    folded = trim(status).lower()
    matches = [
        (len(pattern), match == "exact", meaning)
        for pattern, match, meaning in rules.llm_statuses
        if folded == pattern or (match == "prefix" and folded.startswith(pattern))
    ]
    return max(matches)[2] if matches else "unknown"


def read_rows(path: Path, rules: Rules) -> Iterator[dict[str, str | None]]:
    """Rows keyed by column name, matched by header name (SCORING §0)."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = [name.replace("\ufeff", "").strip() for name in next(reader, [])]
        names = [rules.columns.get(name) for name in header]
        for record in reader:
            # a short record leaves its last columns missing, as DuckDB's null padding would
            cells = zip(names, record, strict=False)
            yield {name: (cell if cell != "" else None) for name, cell in cells if name}


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _round_order(label: str | None) -> tuple[int, int, str]:
    found = _ROUND.fullmatch(label or "")
    return (int(found.group(1)), int(found.group(2)), "") if found else (1 << 30, 0, label or "")


def reject_code(row: dict[str, str | None], scored_items: set[str]) -> str | None:
    """Why a row cannot be scored (model stg_exports__rows), or None; the first row of a
    repeated Item ID is scored, later ones are rejected."""
    if all(clean(value) is None for value in row.values()):
        return "empty_row"
    item_key = clean(row.get("item_id"))
    round_key = clean(row.get("round_label"))
    if item_key is None:
        return "missing_item_id"
    if clean(row.get("query_id")) is None:
        return "missing_query_id"
    if round_key is None:
        return "missing_round_label"
    if round_label_of(round_key) is None:
        return "bad_round_label"
    if trim(item_key) in scored_items:
        return "duplicate_item_id"
    scored_items.add(trim(item_key))
    return None


def score_file(path: Path, rules: Rules) -> dict[str, Any]:
    """Per-round figures and consistency of one export file (SCORING §2.4-§2.6)."""
    rounds: dict[str | None, list[Item]] = defaultdict(list)
    rejected: dict[str, int] = defaultdict(int)
    scored_items: set[str] = set()
    for row in read_rows(path, rules):
        code = reject_code(row, scored_items)
        if code is not None:
            rejected[code] += 1
            continue
        item = score_row(row, rules)
        rounds[item.round_label].append(item)

    figures = {}
    for label in sorted(rounds, key=_round_order):
        items = rounds[label]
        key = label if label is not None else NO_ROUND
        intents = [i.intent for i in items if i.intent is not None]
        times = [i.seconds for i in items if i.seconds is not None]
        speeds = [float(i.speed) for i in items if i.speed is not None]
        mean_seconds = mean(times)
        figures[key] = {
            "item_count": len(items),
            "scored_count": len(intents),
            "error_count": sum(i.status == "error" for i in items),
            "empty_count": sum(i.status == "empty" for i in items),
            "llm_count": sum(i.score_source == "llm" for i in items),
            "heuristic_count": sum(i.score_source == "heuristic" for i in items),
            "check_count": sum(i.check_count for i in items),
            "check_passed": sum(i.check_passed for i in items),
            "intent_score": mean(intents),
            "stability_score": mean([float(i.stability) for i in items]),
            "timed_count": len(times),
            "mean_response_time_sec": mean_seconds,
            "speed_points": speed_points(mean_seconds, rules.speed_bounds),
            "item_speed_points_mean": mean(speeds),
        }
    return {
        "rounds": figures,
        "consistency": consistency(rounds, rules),
        "rejected": dict(rejected),
    }


def consistency(rounds: dict[str | None, list[Item]], rules: Rules) -> dict[str, Any]:
    """Query IDs with >= 2 scored rounds; consistent when no two rounds disagree on pass."""
    passed: dict[str, dict[str | None, bool]] = defaultdict(dict)
    queries = set()
    for label, items in rounds.items():
        for item in items:
            if item.query_id is None:
                continue
            queries.add(item.query_id)
            if item.intent is not None:
                ok = item.intent >= rules.pass_score
                per_round = passed[item.query_id]
                per_round[label] = per_round.get(label, True) and ok
    counts = {"all_pass": 0, "all_fail": 0, "mismatch": 0, "not_eligible": 0}
    for query in queries:
        per_round = passed.get(query, {})
        # the SQL pairs rounds with `earlier.round_label < later.round_label`: an unlabelled
        # round counts towards eligibility but is never compared
        labelled = {v for label, v in per_round.items() if label is not None}
        if len(per_round) < 2:
            counts["not_eligible"] += 1
        elif len(labelled) > 1:
            counts["mismatch"] += 1
        elif all(per_round.values()):
            counts["all_pass"] += 1
        else:
            counts["all_fail"] += 1
    eligible = counts["all_pass"] + counts["all_fail"] + counts["mismatch"]
    return {
        "eligible_queries": eligible,
        **counts,
        "consistency_score": 5.0 * (counts["all_pass"] + counts["all_fail"]) / eligible
        if eligible
        else None,
    }


def score_files(paths: Iterable[Path], rules: Rules | None = None) -> dict[str, Any]:
    rules = rules or load_rules()
    return {path.name: score_file(path, rules) for path in paths}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input_dir", type=Path)
    parser.add_argument("--glob", default="plan_agent_*.csv")
    parser.add_argument("--out", type=Path, required=True, help="figures as JSON")
    parser.add_argument("--project-dir", type=Path, default=PROJECT_DIR)
    args = parser.parse_args(argv)
    csv.field_size_limit(sys.maxsize)
    started = time.perf_counter()
    figures = score_files(sorted(args.input_dir.glob(args.glob)), load_rules(args.project_dir))
    elapsed = time.perf_counter() - started
    rows = sum(r["item_count"] for f in figures.values() for r in f["rounds"].values())
    args.out.write_text(
        json.dumps({"rows": rows, "elapsed_s": elapsed, "files": figures}, ensure_ascii=False),
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
