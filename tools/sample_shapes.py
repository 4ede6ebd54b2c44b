"""The shapes the sample exports are made of: the export's columns, the Raw JSON of one reply,
and the UI items an agent answers with. tools/make_sample_data.py builds the bundled samples
with them from the cases in tools/sample_cases/, and tests/fixtures/make_resume_fixture.py the
published-report fixture.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from agent_bench.generate import failure_payload

EXCEL_CELL_LIMIT = 32_767  # Excel silently cuts a longer cell: the Raw JSON becomes invalid

PLAN_HEADER = [
    "Run ID",
    "Item ID",
    "Ordinal",
    "Query ID",
    "질의",
    "기대결과",
    "카테고리",
    "방/반복",
    "실행시각",
    "응답",
    "오류",
    "Logic 결과",
    "Logic 사유",
    "LLM 상태",
    "LLM 모델",
    "LLM 점수",
    "LLM 코멘트",
    "Raw JSON",
]
RESUME_HEADER = PLAN_HEADER[:4] + ["Track"] + PLAN_HEADER[4:]

Json = dict[str, Any]


# --------------------------------------------------------------------------- one reply


class Ids:
    """Deterministic UUIDs and jitter from one seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def jitter(self, low: float, high: float) -> float:
        return self.rng.uniform(low, high)


@dataclass(frozen=True)
class Step:
    """One worker call inside a reply (``executionProcesses`` / ``worker`` entry)."""

    worker_type: str
    summary: str
    share: float  # share of the reply's wall time spent in this worker


@dataclass(frozen=True)
class Reply:
    """What the agent returned for one query in one round, plus the export's side columns."""

    message: str | None = None
    ui: list[Json] | None = None
    seconds: float | str | None = None
    error: str = ""  # Raw JSON "error"; non-empty -> failure shape (nulls everywhere)
    error_column: str = ""  # the export's own 오류 column
    truncate: bool = False  # cut the Raw JSON cell at Excel's 32,767 characters
    llm: tuple[str, str, str, str] = ("", "", "", "")  # LLM 상태, 모델, 점수, 코멘트
    track: str = ""  # resume only: how the Track cell is spelled in this row
    note: str = ""  # why this reply is in the sample (documentation only)


def seconds_as_float(seconds: float | str | None) -> float:
    if seconds is None:
        return 0.0
    return float(seconds)


def success_raw(
    ids: Ids,
    reply: Reply,
    query: str,
    conversation_id: str,
    context: Json,
    steps: Sequence[Step],
) -> Json:
    """A successful reply in the export's Raw JSON layout (key order as in the real files)."""
    message = reply.message if reply.message is not None else ""
    ui = reply.ui if reply.ui is not None else []
    total_ms = seconds_as_float(reply.seconds) * 1000 - ids.jitter(0.05, 0.6)
    processes: list[Json] = []
    workers: list[Json] = []
    ms_map: dict[str, float] = {}
    last = len(steps) - 1
    for index, step in enumerate(steps):
        ms = round(total_ms * step.share, 6)
        processes.append(
            {
                "messageSummary": step.summary,
                "workerType": step.worker_type,
                "ms": ms,
                "index": index,
            }
        )
        output: Json = {"workerType": step.worker_type}
        if index == last:
            output.update({"assistantMessage": message, "dataUIList": ui})
        else:
            output.update({"assistantMessage": "", "dataUIList": [], "summary": step.summary})
        workers.append(
            {
                "type": step.worker_type,
                "input": {"message": query, "context": context},
                "output": output,
                "ms": ms,
            }
        )
        ms_map[f"{step.worker_type}#{index}"] = ms
    return {
        "assistantMessage": message,
        "dataUIList": ui,
        "guideList": [],
        "executionProcesses": processes,
        "worker": workers,
        "workerMsMap": ms_map,
        "conversationId": conversation_id,
        "responseTimeSec": reply.seconds,
        "error": "",
    }


def failure_raw(reply: Reply, conversation_id: str) -> Json:
    return failure_payload(reply.error, reply.seconds, conversation_id)


def raw_json_cell(raw: Json, truncate: bool) -> str:
    text = json.dumps(raw, ensure_ascii=False)
    if truncate:
        if len(text) <= EXCEL_CELL_LIMIT:
            raise ValueError("a truncated Raw JSON sample must be longer than the Excel limit")
        text = text[:EXCEL_CELL_LIMIT]
    return text


def as_json_string(item: Json) -> Json:
    """The same UI item with its uiValue serialised to a JSON string (seen in the wild)."""
    return {**item, "uiValue": json.dumps(item["uiValue"], ensure_ascii=False)}


# --------------------------------------------------------------------------- plan agent UI

PLAN_ID = 2417
PLAN_TITLE = "2026 하반기 신입/경력 공채 - 영업·마케팅·IT개발·디자인"


@dataclass(frozen=True)
class Node:
    node_id: int
    node_type: str
    name: str


# the recruiting plan's screening steps, by the names the cases use
NODES = {
    "SUBMISSION": Node(9120, "APPLICATION_SUBMISSION", "지원서 접수"),
    "DOCUMENT": Node(9121, "DOCUMENT_SCREENING", "서류전형"),
    "ACC": Node(9122, "ACC_SCREENING", "역량검사"),
    "COORDINATION": Node(9123, "INTERVIEW_SCREENING_COORDINATION", "1차 면접(일정조율)"),
    "INTERVIEW": Node(9124, "INTERVIEW_SCREENING", "2차 면접"),
}


def select_ui(
    description: str, options: Sequence[tuple[str, str]], field: str, multi: bool
) -> Json:
    return {
        "uiDescription": description,
        "uiValue": {
            "formType": "SELECT",
            "selectOptionList": [
                {
                    "optionId": i,
                    "optionName": name,
                    "optionValue": value,
                    "optionValueFieldName": field,
                }
                for i, (name, value) in enumerate(options, start=1)
            ],
            "multiSelectAllowYn": multi,
        },
    }


def node_options(nodes: Sequence[Node]) -> list[tuple[str, str]]:
    return [(f"{n.name}({PLAN_TITLE} - {n.name})", str(n.node_id)) for n in nodes]


def action_ui(
    description: str,
    message: str,
    action_type: str,
    node: Node,
    *,
    data_key: str | None = None,
    data_value: Any = None,
    button_key: str | None = None,
    flat_data_key: bool = True,
    external_id: int | None = None,
) -> Json:
    """An ACTION item. ``flat_data_key=False`` keeps the key only at value.nodeDataSet.dataKey,
    as every item of the real export does; ``True`` also writes value.dataKey."""
    value: Json = {"nodeId": node.node_id, "nodeType": node.node_type}
    if data_key is not None:
        value["nodeExternalId"] = external_id
        if flat_data_key:
            value["dataKey"] = data_key
        value["nodeDataSet"] = {"dataKey": data_key, "dataValue": data_value}
    if button_key is not None:
        value["buttonKey"] = button_key
    return {
        "uiDescription": description,
        "uiValue": {
            "formType": "ACTION",
            "message": message,
            "actionType": action_type,
            "value": value,
            "buttonName": "적용하기",
            "planId": PLAN_ID,
        },
    }


EVALUATOR_SURNAMES = "김이박최정강조윤장임한오서신권황안송류전"
EVALUATOR_GIVEN = ("민준", "서연", "도윤", "하은", "시우", "지유", "주원", "서윤", "예준", "지민")
DEPARTMENTS = ("영업본부", "마케팅실", "IT개발센터", "디자인팀", "인사팀", "경영기획실")
TITLES = ("팀장", "파트장", "책임", "선임", "수석")


def evaluator_options(count: int) -> list[tuple[str, str]]:
    options = []
    for i in range(count):
        surname = EVALUATOR_SURNAMES[i % len(EVALUATOR_SURNAMES)]
        given = EVALUATOR_GIVEN[(i // len(EVALUATOR_SURNAMES)) % len(EVALUATOR_GIVEN)]
        department = DEPARTMENTS[i % len(DEPARTMENTS)]
        title = TITLES[i % len(TITLES)]
        label = (
            f"{surname}{given} ({department} / {title}) - 최근 1년 서류 평가 {10 + i % 37}건, "
            f"면접 평가 {3 + i % 11}건, 평가자 교육 이수"
        )
        options.append((label, f"VALUER-{40000 + i * 7}"))
    return options


# --------------------------------------------------------------------------- resume agent UI


def link_ui(description: str, conditions: Json, count: int) -> Json:
    encoded = quote(json.dumps(conditions, ensure_ascii=False, separators=(",", ":")), safe="")
    return {
        "uiDescription": description,
        "uiValue": {
            "formType": "LINK",
            "buttonName": f"지원자 {count}명 보기",
            "buttonUrl": f"/applicants?filter={encoded}",
        },
    }


def table_ui(description: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> Json:
    return {
        "uiDescription": description,
        "uiValue": {
            "formType": "TABLE",
            "columnName": list(columns),
            "rowValue": [list(row) for row in rows],
            "totalCount": len(rows),
        },
    }


def applicant_rows(count: int) -> list[list[str]]:
    rows = []
    for i in range(count):
        surname = EVALUATOR_SURNAMES[i % len(EVALUATOR_SURNAMES)]
        given = EVALUATOR_GIVEN[(i * 3) % len(EVALUATOR_GIVEN)]
        rows.append(
            [
                f"A2026-{10000 + i * 13}",
                f"{surname}{given}",
                "석사" if i % 4 else "박사",
                ("영업", "마케팅", "IT개발", "디자인")[i % 4],
                f"{60 + (i * 7) % 40}.{i % 10}",
                "서울특별시 강남구 테헤란로 일대 거주, 경력 3년 이상",
            ]
        )
    return rows


# --------------------------------------------------------------------------- url agent UI


def button(name: str, url: str) -> Json:
    """The navigation agent's answer: a button whose buttonUrl opens a screen."""
    value: Json = {"formType": "LINK", "buttonName": name, "buttonUrl": url}
    return {"uiDescription": f"{name} 화면으로 이동", "uiValue": value}
