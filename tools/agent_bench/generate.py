"""Synthetic exports in the real format, resampled from a bundled sample export.

Each generated file is one test set as the team's tool writes it (SCORING §0): UTF-8 with BOM,
CRLF record ends, LF inside quoted cells, minimal quoting, every round of a set of queries, one
Run ID, rows ordered by round then query, Ordinal counting through the file. Queries are drawn
from the template with replacement and get new IDs (or, with `same_queries`, one query set is
drawn once and every file runs it, as daily runs of one test set do); response times (and the worker
milliseconds that add up to them) are jittered; a configurable share of rows become the real
failure shapes: timeouts, empty replies and Raw JSON cells cut short (invalid JSON).
"""

from __future__ import annotations

import csv
import json
import math
import random
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

# Raw JSON cells are rebuilt per row from a pre-serialised skeleton: json.dumps of a ~4 kB
# payload per row would dominate generation time at a million rows.
_MARK = "\u27e6{}\u27e7"  # ⟦n⟧: cannot occur in a real payload key or value
_MARKS = re.compile('"\u27e6([0-9]+)\u27e7"')
TIMEOUT_ERROR = "timeout(120000ms)"
LLM_COLUMNS = ("LLM 상태", "LLM 모델", "LLM 점수", "LLM 코멘트")


@dataclass(frozen=True)
class Faults:
    """Share of generated rows turned into each failure shape (the rest keep the template's)."""

    timeout: float = 0.03
    empty: float = 0.01
    invalid_json: float = 0.01

    def pick(self, draw: float) -> str | None:
        if draw < self.timeout:
            return "timeout"
        if draw < self.timeout + self.empty:
            return "empty"
        if draw < self.timeout + self.empty + self.invalid_json:
            return "invalid_json"
        return None


@dataclass
class TemplateRow:
    cells: dict[str, str]
    raw: dict[str, Any] | None  # parsed Raw JSON; None when the template cell is invalid
    skeleton: list[str] = field(default_factory=list)  # text parts between markers
    slots: list[tuple[str, float]] = field(default_factory=list)  # (kind, template value)


@dataclass
class Template:
    agent: str  # file prefix, e.g. plan_agent
    header: list[str]
    rounds: list[str]  # 방/반복 labels in numeric (room, repeat) order
    queries: list[dict[str, TemplateRow]]  # per template query: round label -> row


@dataclass
class QuerySet:
    """Queries drawn once, with their Query IDs: every file given it runs these (a file of
    fewer rows, the first of them)."""

    picks: list[dict[str, TemplateRow]]
    query_ids: list[str]


@dataclass
class GeneratedFile:
    path: Path
    rows: int
    size_bytes: int
    faults: Counter[str]


def agent_of(path: Path) -> str:
    """`plan_agent_sample.csv` -> `plan_agent` (the prefix the warehouse globs on)."""
    found = re.match(r"^(.*?_agent)_", path.name)
    if not found:
        raise ValueError(f"{path}: name must start with <agent>_agent_ (e.g. plan_agent_x.csv)")
    return found.group(1)


def round_key(label: str) -> tuple[int, int, str]:
    found = re.match(r"^\s*(\d+)/(\d+)\s*$", label)
    return (int(found.group(1)), int(found.group(2)), label) if found else (1 << 30, 0, label)


def _mark_times(raw: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, float]]]:
    """A copy of the payload with the jittered fields replaced by numbered markers."""
    marked = json.loads(json.dumps(raw))
    slots: list[tuple[str, float]] = []

    def mark(kind: str, value: Any) -> str:
        slots.append((kind, float(value) if kind != "conversation" else 0.0))
        return _MARK.format(len(slots) - 1)

    def is_number(value: Any) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    if is_number(marked.get("responseTimeSec")):
        marked["responseTimeSec"] = mark("seconds", marked["responseTimeSec"])
    if isinstance(marked.get("conversationId"), str):
        marked["conversationId"] = mark("conversation", None)
    for key in ("executionProcesses", "worker"):
        for entry in marked.get(key) or []:
            if isinstance(entry, dict) and is_number(entry.get("ms")):
                entry["ms"] = mark("ms", entry["ms"])
    ms_map = marked.get("workerMsMap")
    if isinstance(ms_map, dict):
        for name, value in ms_map.items():
            if is_number(value):
                ms_map[name] = mark("ms", value)
    return marked, slots


def load_template(path: Path) -> Template:
    csv.field_size_limit(1 << 30)
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = [name.replace("\ufeff", "").strip() for name in next(reader)]
        records = [dict(zip(header, record, strict=False)) for record in reader]
    if "Raw JSON" not in header or "방/반복" not in header:
        raise ValueError(f'{path}: a template needs the "Raw JSON" and "방/반복" columns')
    by_query: dict[str, dict[str, TemplateRow]] = {}
    for index, cells in enumerate(records):
        query = cells.get("Query ID") or cells.get("질의") or str(index)
        try:
            raw = json.loads(cells["Raw JSON"])
        except ValueError:
            raw = None
        row = TemplateRow(cells=cells, raw=raw if isinstance(raw, dict) else None)
        if row.raw is not None:
            marked, slots = _mark_times(row.raw)
            pieces = _MARKS.split(json.dumps(marked, ensure_ascii=False))
            # markers come back in serialisation order, which is not the marking order
            row.skeleton = pieces[0::2]
            row.slots = [slots[int(number)] for number in pieces[1::2]]
        by_query.setdefault(query, {})[cells["방/반복"].strip()] = row
    rounds = sorted({label for rows in by_query.values() for label in rows}, key=round_key)
    return Template(agent_of(path), header, rounds, list(by_query.values()))


class _Ids:
    """Seeded UUIDs so that a run is reproducible from --seed."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def new(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))


def _raw_cell(row: TemplateRow, factor: float, conversation: str) -> tuple[str, float | None]:
    """The row's Raw JSON with jittered times; returns the cell and its responseTimeSec."""
    if row.raw is None:
        return row.cells["Raw JSON"], None  # keep the template's own broken cell
    seconds = row.raw.get("responseTimeSec")
    new_seconds: float | None = None
    values: list[str] = []
    for kind, value in row.slots:
        if kind == "seconds":
            new_seconds = round(value * factor, 4)
            values.append(repr(new_seconds))
        elif kind == "conversation":
            values.append(json.dumps(conversation))
        else:
            values.append(repr(round(value * factor, 6)))
    parts = [row.skeleton[0]]
    for value, text in zip(values, row.skeleton[1:], strict=True):
        parts.append(value)
        parts.append(text)
    if new_seconds is None and isinstance(seconds, str):
        try:
            new_seconds = float(seconds)
        except ValueError:
            new_seconds = None
    return "".join(parts), new_seconds


def failure_payload(error: str, seconds: float | None, conversation: str) -> dict[str, Any]:
    """The real failure shape (SCORING §1): nulls for the message, the UI list and the
    guides, the error in Raw JSON only. The bundled samples and fixtures use it too."""
    return {
        "assistantMessage": None,
        "dataUIList": None,
        "guideList": None,
        "executionProcesses": [],
        "worker": [],
        "workerMsMap": {},
        "conversationId": conversation,
        "responseTimeSec": seconds,
        "error": error,
    }


def _fault_cell(kind: str, row: TemplateRow, factor: float, conversation: str) -> str:
    if kind == "timeout":
        return json.dumps(failure_payload(TIMEOUT_ERROR, None, conversation), ensure_ascii=False)
    # An empty reply: the agent answered in time but said nothing and showed nothing.
    raw = dict(row.raw or {"guideList": [], "executionProcesses": [], "worker": []})
    raw.update(assistantMessage="", dataUIList=[], conversationId=conversation, error="")
    seconds = raw.get("responseTimeSec")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
        raw["responseTimeSec"] = round(seconds * factor, 4)
    return json.dumps(raw, ensure_ascii=False)


def write_export(
    path: Path,
    template: Template,
    rows: int,
    rng: random.Random,
    faults: Faults,
    start: datetime,
    jitter_sigma: float = 0.25,
    query_set: QuerySet | None = None,
) -> GeneratedFile:
    """One test-set file of `rows` rows: ceil(rows / rounds) queries, every round of each
    (new ones, or the first of `query_set`)."""
    ids = _Ids(rng)
    header = template.header
    rounds = template.rounds
    wanted = math.ceil(rows / len(rounds))
    if query_set is None:
        picks = [rng.choice(template.queries) for _ in range(wanted)]
        query_ids = [ids.new() for _ in picks]
    else:
        if wanted > len(query_set.picks):
            raise ValueError(f"{rows} rows need {wanted} queries; the query set has "
                             f"{len(query_set.picks)}")
        picks, query_ids = query_set.picks[:wanted], query_set.query_ids[:wanted]
    run_id = ids.new()
    counts: Counter[str] = Counter()
    path.parent.mkdir(parents=True, exist_ok=True)
    ordinal = 0
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\r\n")
        writer.writerow(header)
        for round_index, label in enumerate(rounds):
            # rooms run side by side: each round has its own clock and conversation
            clock = start + timedelta(seconds=round_index * rng.uniform(3, 15))
            conversation = ids.new()
            for pick, query_id in zip(picks, query_ids, strict=True):
                if ordinal == rows:
                    break
                ordinal += 1
                row = pick.get(label) or next(iter(pick.values()))
                factor = rng.lognormvariate(0.0, jitter_sigma)
                cells = dict(row.cells)
                kind = faults.pick(rng.random())
                raw_cell, seconds = _raw_cell(row, factor, conversation)
                if kind == "invalid_json":
                    raw_cell = raw_cell[: rng.randint(len(raw_cell) // 2, len(raw_cell) - 1)]
                elif kind is not None:
                    raw_cell = _fault_cell(kind, row, factor, conversation)
                    cells["응답"] = ""
                    cells.update(dict.fromkeys((c for c in LLM_COLUMNS if c in cells), ""))
                    if kind == "timeout":
                        seconds = 120.0
                counts[kind or "template"] += 1
                cells.update(
                    {
                        "Run ID": run_id,
                        "Item ID": ids.new(),
                        "Ordinal": str(ordinal),
                        "Query ID": query_id,
                        "방/반복": label,
                        "실행시각": clock.isoformat(timespec="microseconds"),
                        "Raw JSON": raw_cell,
                    }
                )
                clock += timedelta(seconds=(seconds or 10.0) + rng.uniform(0.2, 1.5))
                writer.writerow([cells.get(name, "") for name in header])
    return GeneratedFile(path, ordinal, path.stat().st_size, counts)


def parse_file_rows(text: str) -> tuple[int, int]:
    """`5000` -> (5000, 5000); `262-5000` -> (262, 5000): rows per file, drawn uniformly."""
    low, _, high = text.partition("-")
    bounds = (int(low), int(high or low))
    if bounds[0] < 1 or bounds[1] < bounds[0]:
        raise ValueError(f"file rows {text!r}: want N or LOW-HIGH with 1 <= LOW <= HIGH")
    return bounds


def generate_exports(
    template_path: Path,
    out_dir: Path,
    rows: int,
    file_rows: tuple[int, int] = (262, 5000),
    seed: int = 7,
    faults: Faults | None = None,
    first_index: int = 0,
    first_day: date = date(2026, 1, 5),
    same_queries: bool = False,
) -> list[GeneratedFile]:
    """Write `rows` rows as <agent>_<yymmdd>_<k>.csv files, one test set per day; with
    `same_queries`, every file runs the same queries (same Query IDs), drawn once."""
    template = load_template(template_path)
    rng = random.Random(seed)
    faults = faults or Faults()
    query_set = None
    if same_queries:
        # its own stream: the files' other draws stay what they are without it
        drawn = random.Random(f"{seed}-queries")
        count = math.ceil(file_rows[1] / len(template.rounds))
        query_set = QuerySet([drawn.choice(template.queries) for _ in range(count)],
                             [_Ids(drawn).new() for _ in range(count)])
    written: list[GeneratedFile] = []
    remaining = rows
    index = first_index
    while remaining > 0:
        size = min(rng.randint(*file_rows), remaining)
        day = first_day + timedelta(days=index)
        start = datetime.combine(day, datetime.min.time()) + timedelta(
            hours=9, seconds=rng.uniform(0, 3600)
        )
        path = out_dir / f"{template.agent}_{day:%y%m%d}_{index:04d}.csv"
        written.append(write_export(path, template, size, rng, faults, start,
                                    query_set=query_set))
        remaining -= size
        index += 1
    return written
