"""Generate the sample exports in ``samples/``.

    python tools/make_sample_data.py

writes

* ``samples/plan_agent_sample.csv``   — 20 queries x 2 rounds (40 rows), 18 columns
* ``samples/resume_agent_sample.csv`` — 12 queries x 2 rounds (24 rows), 19 columns
* ``samples/url_agent_sample.csv``    — 16 queries x 2 rounds (32 rows), 18 columns

and then runs ``tests/fixtures/make_resume_fixture.py`` (the published-report fixture and its
expected figures).

in the team's real export format (see ``SCORING.md`` §0): UTF-8 with BOM, CRLF record ends,
LF inside quoted multi-line cells, ``""`` escaping, minimal quoting. Every payload is made up;
nothing is copied from the real exports. The output is deterministic: a fixed seed drives the
identifiers and the per-worker milliseconds; the queries, the expected results and each
round's reply are data, ``tools/sample_cases/<agent>.json`` (their format: ``build_query``,
``build_reply``, ``build_ui``), turned into the export's Raw JSON by ``tools/sample_shapes.py``.

The samples carry deliberate faults so that every scoring rule has something to bite on
(timeouts, HTTP 500, ``TypeError``, an empty reply, an Excel-truncated Raw JSON cell, a filled
``오류`` column, LLM-scored rows, a ``uiValue`` sent as a JSON string, a numeric-string
``responseTimeSec``, keys only at ``value.nodeDataSet.dataKey``, an expected result with no
parsable check, round-to-round disagreements, and response times in every speed band). The
``note`` of each reply in the cases says what it is there for.
"""

from __future__ import annotations

import csv
import json
import runpy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sample_shapes import (
    NODES,
    PLAN_HEADER,
    PLAN_ID,
    RESUME_HEADER,
    Ids,
    Json,
    Reply,
    Step,
    action_ui,
    applicant_rows,
    as_json_string,
    button,
    evaluator_options,
    failure_raw,
    link_ui,
    node_options,
    raw_json_cell,
    seconds_as_float,
    select_ui,
    success_raw,
    table_ui,
)

SEED = 20260305
URL_SEED = SEED + 2  # the url agent's own generator, so the plan and resume samples stay
ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "samples"
CASES_DIR = Path(__file__).resolve().parent / "sample_cases"
FIXTURE_SCRIPT = ROOT / "tests" / "fixtures" / "make_resume_fixture.py"
ROUNDS = ("1/1", "2/1")


# --------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class Query:
    text: str
    expected: str
    replies: tuple[Reply, Reply]  # one per round
    category: str = "Happy path"
    query_id: str | None = None  # the resume cases' own IDs (F-01, …); else a new UUID


def _select(
    description: str,
    *,
    field: str,
    multi: bool,
    options: Sequence[tuple[str, str]] = (),
    nodes: Sequence[str] = (),
    evaluators: int = 0,
) -> Json:
    if nodes:
        options = node_options([NODES[name] for name in nodes])
    elif evaluators:
        options = evaluator_options(evaluators)
    return select_ui(description, options, field, multi)


def _action(description: str, *, node: str, **keywords: Any) -> Json:
    return action_ui(description, node=NODES[node], **keywords)


def _link(description: str, *, conditions: Json, count: int) -> Json:
    return link_ui(description, conditions, count)


def _table(
    description: str, *, columns: Sequence[str], rows: Sequence[Sequence[str]] = (),
    applicants: int = 0,
) -> Json:
    return table_ui(description, columns, applicant_rows(applicants) if applicants else rows)


def _button(name: str, *, url: str) -> Json:
    return button(name, url)


UI_KINDS: dict[str, Callable[..., Json]] = {
    "select": _select, "action": _action, "link": _link, "table": _table, "button": _button,
}


def build_ui(spec: Json) -> Json:
    """One UI item. The spec's first key names the kind and holds the description:
    ``{"select": …, "field", "multi"}`` with ``"options"`` ([name, value] pairs), ``"nodes"``
    (keys of NODES) or ``"evaluators"`` (that many made-up evaluators); ``{"action": …,
    "message", "action_type", "node", …}`` with action_ui's keywords; ``{"link": …,
    "conditions", "count"}``; ``{"table": …, "columns"}`` with ``"rows"`` or ``"applicants"``
    (that many made-up rows); ``{"button": name, "url"}``. ``"as_json_string": true`` sends
    the item's uiValue as a JSON string."""
    spec = dict(spec)
    as_string = spec.pop("as_json_string", False)
    kind, description = next(iter(spec.items()))
    del spec[kind]
    if kind not in UI_KINDS:
        raise ValueError(f"unknown UI item kind {kind!r}; want one of {sorted(UI_KINDS)}")
    item = UI_KINDS[kind](description, **spec)
    return as_json_string(item) if as_string else item


def build_reply(spec: Json) -> Reply:
    """One round's reply: Reply's fields by name, ``"ui"`` a list of build_ui specs.
    ``{"go": name, "url": …}`` is the navigation agent's answer, one button and the sentence
    offering it (``"as_json_string"`` applies to the button)."""
    spec = dict(spec)
    if "go" in spec:
        name = spec.pop("go")
        target = {"button": name, "url": spec.pop("url")}
        if spec.pop("as_json_string", False):
            target["as_json_string"] = True
        spec = {"message": f"{name} 화면으로 이동할 수 있어요. 아래 버튼을 눌러 주세요.",
                "ui": [target], **spec}
    if spec.get("ui") is not None:
        spec["ui"] = [build_ui(item) for item in spec["ui"]]
    if "llm" in spec:
        spec["llm"] = tuple(spec["llm"])
    return Reply(**spec)


def build_query(spec: Json) -> Query:
    """One query: Query's fields by name, ``"replies"`` one build_reply spec per round."""
    return Query(**{**spec, "replies": tuple(build_reply(reply) for reply in spec["replies"])})


def load_queries(agent: str) -> list[Query]:
    cases = json.loads((CASES_DIR / f"{agent}.json").read_text(encoding="utf-8"))
    return [build_query(spec) for spec in cases]


# --------------------------------------------------------------------------- the exports


class Clock:
    """The 실행시각 of one round (room): each call stamps a row, then waits for its reply."""

    def __init__(self, start: datetime, ids: Ids) -> None:
        self.now = start
        self.ids = ids

    def stamp(self, seconds: float) -> str:
        stamp = self.now.isoformat(timespec="microseconds")
        self.now += timedelta(seconds=seconds + self.ids.jitter(0.3, 0.9))
        return stamp


@dataclass(frozen=True)
class Export:
    """One sample export: its cases (``sample_cases/<agent>.json``) and what its rows share."""

    agent: str
    header: Sequence[str]
    context: Json  # the workers' input context
    steps: Callable[[Query], Sequence[Step]]  # the workers of one reply
    starts: tuple[datetime, datetime]  # the 실행시각 of each round's first row
    failed_seconds: float  # how long a failed call took, unless it timed out (120 s)

    @property
    def file_name(self) -> str:
        return f"{self.agent}_sample.csv"


PLAN_STEPS = (Step("RECRUIT_PLAN_WORKER_V3", "RECRUIT_PLAN_WORKER_V3", 1.0),)
FILTER_STEPS = (Step("APPLICANT_FILTER_WORKER", "지원자 조건 필터링", 1.0),)
COUNT_STEPS = (Step("APPLICANT_AGGREGATION_WORKER", "지원자 열 기준 집계", 1.0),)
ANALYSIS_STEPS = (
    Step("APPLICANT_QUERY_PLANNER", "질의 분해 및 실행 계획 수립", 0.18),
    Step("APPLICANT_FILTER_WORKER", "조건별 지원자 추출", 0.34),
    Step("APPLICANT_ANALYTICS_WORKER", "점수·지망 통계 분석 및 요약", 0.48),
)
URL_STEPS = (Step("MENU_NAVIGATION_WORKER", "메뉴 이동 경로 탐색", 1.0),)


def resume_steps(query: Query) -> tuple[Step, ...]:
    """Track 3 (T-) replies carry three workers, counts (C-) and filters (F-) one."""
    assert query.query_id is not None
    if query.query_id.startswith("T-"):
        return ANALYSIS_STEPS
    if query.query_id.startswith("C-"):
        return COUNT_STEPS
    return FILTER_STEPS


PLAN = Export(
    "plan_agent", PLAN_HEADER, {"recruitPlanId": PLAN_ID}, lambda query: PLAN_STEPS,
    (datetime(2026, 3, 5, 9, 12, 4, 118204), datetime(2026, 3, 5, 9, 12, 10, 640913)), 2.5,
)
RESUME = Export(
    "resume_agent", RESUME_HEADER, {"recruitNoticeId": 55217, "recruitPlanId": PLAN_ID},
    resume_steps,
    (datetime(2026, 3, 5, 14, 2, 31, 507218), datetime(2026, 3, 5, 14, 2, 38, 91334)), 4.0,
)
# The navigation agent (이동 에이전트) answers with a button whose buttonUrl opens a screen;
# 기대결과 names the screen by its dataKey and/or its URL.
URL = Export(
    "url_agent", PLAN_HEADER, {"recruitPlanId": PLAN_ID}, lambda query: URL_STEPS,
    (datetime(2026, 3, 6, 14, 2, 11, 402117), datetime(2026, 3, 6, 14, 2, 19, 73540)), 2.5,
)


def export_rows(ids: Ids, export: Export) -> list[list[str]]:
    """Every round of the export's queries, in its header's columns."""
    run_id = ids.uuid()
    queries = load_queries(export.agent)
    query_ids = [query.query_id or ids.uuid() for query in queries]
    conversations = [ids.uuid() for _ in ROUNDS]
    rows: list[list[str]] = []
    ordinal = 0
    for round_index, round_label in enumerate(ROUNDS):
        clock = Clock(export.starts[round_index], ids)
        for query, query_id in zip(queries, query_ids, strict=True):
            reply = query.replies[round_index]
            ordinal += 1
            if reply.error:
                raw = failure_raw(reply, conversations[round_index])
                duration = 120.0 if reply.error.startswith("timeout") else export.failed_seconds
            else:
                raw = success_raw(ids, reply, query.text, conversations[round_index],
                                  export.context, export.steps(query))
                duration = seconds_as_float(reply.seconds)
            status, model, score, comment = reply.llm
            cells = {
                "Run ID": run_id,
                "Item ID": ids.uuid(),
                "Ordinal": str(ordinal),
                "Query ID": query_id,
                "Track": reply.track,
                "질의": query.text,
                "기대결과": query.expected,
                "카테고리": query.category,
                "방/반복": round_label,
                "실행시각": clock.stamp(duration),
                "응답": reply.message or "",
                "오류": reply.error_column,
                "Logic 결과": "",
                "Logic 사유": "",
                "LLM 상태": status,
                "LLM 모델": model,
                "LLM 점수": score,
                "LLM 코멘트": comment,
                "Raw JSON": raw_json_cell(raw, reply.truncate),
            }
            rows.append([cells[column] for column in export.header])
    return rows


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
        writer.writerow(header)
        writer.writerows(rows)


def write_samples(out_dir: Path) -> list[tuple[Path, int]]:
    """The three sample exports into out_dir: each written path and its row count."""
    ids = Ids(SEED)  # plan, then resume, from one generator
    made = [(PLAN, export_rows(ids, PLAN)), (RESUME, export_rows(ids, RESUME)),
            (URL, export_rows(Ids(URL_SEED), URL))]
    written = []
    for export, rows in made:
        write_csv(out_dir / export.file_name, export.header, rows)
        written.append((out_dir / export.file_name, len(rows)))
    return written


def main() -> None:
    for path, rows in write_samples(OUT_DIR):
        print(f"{path.relative_to(ROOT)}: {rows} rows")
    # The published-report fixture has its own generator (runnable on its own); run it too so
    # that this one command regenerates every sample file.
    runpy.run_path(str(FIXTURE_SCRIPT), run_name="__main__")


if __name__ == "__main__":
    main()
