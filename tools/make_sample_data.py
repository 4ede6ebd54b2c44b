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
identifiers and the per-worker milliseconds, everything else is spelled out below.

The samples carry deliberate faults so that every scoring rule has something to bite on
(timeouts, HTTP 500, ``TypeError``, an empty reply, an Excel-truncated Raw JSON cell, a filled
``오류`` column, LLM-scored rows, a ``uiValue`` sent as a JSON string, a numeric-string
``responseTimeSec``, keys only at ``value.nodeDataSet.dataKey``, an expected result with no
parsable check, round-to-round disagreements, and response times in every speed band). The
``note`` of each reply below says what it is there for.
"""

from __future__ import annotations

import csv
import json
import random
import runpy
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from agent_bench.generate import failure_payload

SEED = 20260305
ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "samples"
PLAN_PATH = OUT_DIR / "plan_agent_sample.csv"
RESUME_PATH = OUT_DIR / "resume_agent_sample.csv"
URL_PATH = OUT_DIR / "url_agent_sample.csv"
FIXTURE_SCRIPT = ROOT / "tests" / "fixtures" / "make_resume_fixture.py"

EXCEL_CELL_LIMIT = 32_767  # Excel silently cuts a longer cell: the Raw JSON becomes invalid
ROUNDS = ("1/1", "2/1")

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


# --------------------------------------------------------------------------- shared helpers


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


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
        writer.writerow(header)
        writer.writerows(rows)


class Clock:
    """The 실행시각 of one round (room): each call stamps a row, then waits for its reply."""

    def __init__(self, start: datetime, ids: Ids) -> None:
        self.now = start
        self.ids = ids

    def stamp(self, seconds: float) -> str:
        stamp = self.now.isoformat(timespec="microseconds")
        self.now += timedelta(seconds=seconds + self.ids.jitter(0.3, 0.9))
        return stamp


# --------------------------------------------------------------------------- plan agent

PLAN_ID = 2417
PLAN_CONTEXT: Json = {"recruitPlanId": PLAN_ID}
PLAN_STEPS = (Step("RECRUIT_PLAN_WORKER_V3", "RECRUIT_PLAN_WORKER_V3", 1.0),)
PLAN_TITLE = "2026 하반기 신입/경력 공채 - 영업·마케팅·IT개발·디자인"
HEADER_LINE = "평가 요소 4가지 ->:"


@dataclass(frozen=True)
class Node:
    node_id: int
    node_type: str
    name: str


SUBMISSION = Node(9120, "APPLICATION_SUBMISSION", "지원서 접수")
DOCUMENT = Node(9121, "DOCUMENT_SCREENING", "서류전형")
ACC = Node(9122, "ACC_SCREENING", "역량검사")
COORDINATION = Node(9123, "INTERVIEW_SCREENING_COORDINATION", "1차 면접(일정조율)")
INTERVIEW = Node(9124, "INTERVIEW_SCREENING", "2차 면접")
SCREENING_NODES = (DOCUMENT, ACC, COORDINATION, INTERVIEW)

UPDATE = "RECRUIT_PLAN_NODE_DATASET_UPDATE"
EXECUTE = "RECRUIT_PLAN_NODE_BUTTON_EXECUTE"
UPDATE_AND_EXECUTE = "RECRUIT_PLAN_NODE_DATASET_UPDATE_WITH_BUTTON_EXECUTE"


def check_keyword(keyword: str, curly: bool = False) -> str:
    quoted = f"“{keyword}”" if curly else f'"{keyword}"'
    return f"assistantMessage에 {quoted}과 관련된 내용이 언급되어 있는가"


def check_form(form_type: str) -> str:
    return f'dataUIList 내 formType 값이 "{form_type}"인 항목이 존재하는가'


def check_multi(allowed: bool) -> str:
    return f"해당 항목의 multiSelectAllowYn 값이 {'true' if allowed else 'false'}인가"


def check_action(action_type: str) -> str:
    return f'해당 항목의 actionType 값이 "{action_type}"인가'


def check_data_key(data_key: str) -> str:
    return f'해당 항목의 value 내 dataKey 값이 "{data_key}"인가'


def check_button_key(button_key: str) -> str:
    return f'해당 항목의 value 내 buttonKey 값이 "{button_key}"인가'


def numbered(lines: Sequence[str], style: str = ")", blank_after_header: bool = False) -> str:
    """The team's free-text checklist: a header line, then ``1) …`` or ``1. …`` lines."""
    marker = "{}) " if style == ")" else "{}. "
    body = [marker.format(i) + line for i, line in enumerate(lines, start=1)]
    head = [HEADER_LINE, ""] if blank_after_header else [HEADER_LINE]
    return "\n".join(head + body)


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


def node_options(nodes: Sequence[Node] = SCREENING_NODES) -> list[tuple[str, str]]:
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


def as_json_string(item: Json) -> Json:
    """The same UI item with its uiValue serialised to a JSON string (seen in the wild)."""
    return {**item, "uiValue": json.dumps(item["uiValue"], ensure_ascii=False)}


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


@dataclass(frozen=True)
class PlanQuery:
    text: str
    expected: str
    replies: tuple[Reply, Reply]
    category: str = "Happy path"


def plan_queries() -> list[PlanQuery]:
    site_message = (
        "채용사이트 **세부 설정**은 전형마다 항목이 달라요.\n"
        "아래에서 채용사이트 설정을 바꿀 전형을 선택해 주세요. 여러 전형을 함께 고를 수 있어요.\n\n"
        "선택 후 안내 제목·노출 항목을 이어서 수정하고, 최종 확인 후 반영됩니다."
    )
    blind_message = (
        "블라인드 채용(지원서 블라인드)을 켜려면 적용할 전형을 정해야 해요.\n"
        "아래에서 블라인드 적용 전형을 선택해 주세요. (최종 적용 전 확인 후 반영됩니다.)"
    )
    scale_done = (
        "서류전형 평가척도를 **5점 척도**로 바꾸는 설정을 준비했어요.\n"
        "적용하기를 누르면 평가항목별 척도가 5점 척도로 저장됩니다."
    )
    scale_ask = (
        "평가 척도는 전형별로 따로 관리돼요.\n"
        "어느 전형의 평가 척도를 바꿀지 먼저 골라 주시면 이어서 5점 척도로 바꿔 드릴게요."
    )
    expose_message = (
        "채용사이트에 노출할 전형을 여러 개 고를 수 있어요.\n"
        "아래 목록에서 노출할 전형을 모두 선택해 주세요."
    )
    form_message = (
        "지원서 양식 편집 화면으로 이동할게요.\n항목 추가·삭제는 편집 화면에서 저장 후 반영됩니다."
    )
    result_ask = (
        "역량검사 결과콘텐츠는 응시자 결과표와 평가자용 리포트로 나뉘어요.\n"
        "바꾸실 결과콘텐츠 종류를 아래에서 골라 주세요."
    )
    review_1 = (
        "현재 채용 계획은 **지원서 접수 → 서류전형 → 역량검사 → 1차 면접(일정조율) → 2차 면접**"
        " 순서예요.\n\n"
        "- 서류전형 평가 기간(5일)이 지원자 수(예상 1,200명)에 비해 짧아 보여요.\n"
        "- 2차 면접의 면접비 지급 설정이 비어 있어요.\n"
        "- 역량검사 응시 기간이 주말을 포함하지 않아요."
    )
    review_2 = (
        "채용 계획 구성을 검토했어요. 전형은 5단계이고, 보완하면 좋은 설정은 아래 두 가지예요.\n"
        "1. 서류전형 평가자 배정이 아직 끝나지 않았어요.\n"
        "2. 채용사이트 안내 제목이 기본값 그대로예요."
    )
    interview_period = action_ui(
        "1차 면접(일정조율) 전형기간 수정",
        "1차 면접(일정조율) 전형기간을 2026-09-08 09:00 ~ 2026-09-19 18:00으로 수정합니다.",
        UPDATE,
        COORDINATION,
        data_key="INTERVIEW_SCREENING_COORDINATION_SCREENING_PERIOD",
        data_value={
            "screeningStartDateTime": "2026-09-08T09:00:00",
            "screeningEndDateTime": "2026-09-19T18:00:00",
        },
        external_id=812204,
    )
    evaluation_period = action_ui(
        "서류전형 평가기간 연장",
        "서류전형 평가기간 종료일을 2026-08-28 18:00에서 2026-08-31 18:00으로 연장합니다.",
        UPDATE,
        DOCUMENT,
        data_key="SCREENING_EVALUATION_PERIOD",
        data_value={
            "evaluationStartDateTime": "2026-08-24T09:00:00",
            "evaluationEndDateTime": "2026-08-31T18:00:00",
        },
        flat_data_key=False,
        external_id=812201,
    )
    interview_pay = action_ui(
        "2차 면접 면접비 지급 설정",
        "2차 면접 면접비 지급 설정 화면을 엽니다.",
        EXECUTE,
        INTERVIEW,
        data_key="INTERVIEW_SCREENING_INTERVIEW_PAY_SETTING",
        flat_data_key=False,
    )
    acc_period = action_ui(
        "역량검사 응시기간 연장",
        "역량검사 응시 종료일을 2026-09-02에서 2026-09-05로 3일 연장합니다.",
        UPDATE,
        ACC,
        data_key="ACC_SCREENING_TEST_PERIOD",
        data_value={"testStartDate": "2026-08-27", "testEndDate": "2026-09-05"},
        flat_data_key=False,
        external_id=812202,
    )
    interview_scale = action_ui(
        "2차 면접 평가항목/평가척도 설정 열기",
        "2차 면접의 평가척도(평가항목 및 항목별 척도) 설정 화면을 엽니다.",
        EXECUTE,
        INTERVIEW,
        data_key="INTERVIEW_EVALUATION_ITEM_AND_SCALE_SETTING",
        button_key="INTERVIEW_EVALUATION_ITEM_AND_SCALE_SETTING",
        flat_data_key=False,
    )
    rename = action_ui(
        "2차 면접 전형명 변경",
        "2차 면접 전형명을 '임원 면접'으로 변경합니다.",
        UPDATE,
        INTERVIEW,
        data_key="SCREENING_NAME",
        data_value={"screeningName": "임원 면접"},
        external_id=812205,
    )
    valuer_nested = action_ui(
        "일정조율 면접 평가자 배정 이동",
        "1차 면접(일정조율) 평가자 배정 화면으로 이동합니다.",
        EXECUTE,
        COORDINATION,
        data_key="INTERVIEW_SCREENING_COORDINATION_VALUER_ASSIGNMENT",
        button_key="INTERVIEW_COORDINATION_SCREENING_EVALUATOR_DETAIL_SETTING",
        flat_data_key=False,
    )
    valuer_flat = action_ui(
        "일정조율 면접 평가자 배정 이동",
        "1차 면접(일정조율) 평가자 배정 화면으로 이동합니다.",
        EXECUTE,
        COORDINATION,
        data_key="INTERVIEW_SCREENING_COORDINATION_VALUER_ASSIGNMENT",
        button_key="INTERVIEW_COORDINATION_SCREENING_EVALUATOR_DETAIL_SETTING",
    )
    recruit_type_nested = action_ui(
        "채용형태 변경",
        "채용형태를 '추천채용'으로 변경합니다.",
        UPDATE,
        SUBMISSION,
        data_key="RECRUIT_TYPE",
        data_value={"recruitType": "REFERRAL"},
        flat_data_key=False,
        external_id=812200,
    )
    recruit_type_flat = action_ui(
        "채용형태 변경",
        "채용형태를 '추천채용'으로 변경합니다.",
        UPDATE,
        SUBMISSION,
        data_key="RECRUIT_TYPE",
        data_value={"recruitType": "REFERRAL"},
        external_id=812200,
    )
    multiple_apply = action_ui(
        "복수지원 허용 설정",
        "지원서 접수의 복수 지원 허용을 켜고 설정 화면을 엽니다.",
        UPDATE_AND_EXECUTE,
        SUBMISSION,
        data_key="MULTIPLE_APPLICATION_SETTING",
        data_value={"multipleApplicationAllowYn": True, "maxApplicationCount": 2},
        button_key="APPLICATION_MULTIPLE_SETTING",
        external_id=812200,
    )
    posting = action_ui(
        "AI 공고문 만들기 열기",
        "AI 공고문 생성 화면으로 이동합니다. (이동 후 최종 확인/적용)",
        EXECUTE,
        SUBMISSION,
        button_key="AI_JOB_POSTING_CREATE",
    )
    form_edit = action_ui(
        "지원서 양식 편집 열기",
        "지원서 양식 편집 화면을 엽니다.",
        EXECUTE,
        SUBMISSION,
        button_key="APPLICATION_FORM_SETTING_EDIT",
    )
    scale_update = action_ui(
        "서류전형 평가척도 5점 척도로 변경",
        "서류전형 평가항목별 척도를 5점 척도로 변경합니다.",
        UPDATE,
        DOCUMENT,
        data_key="EVALUATION_ITEM_AND_SCALE_SETTING",
        data_value={
            "scaleType": "FIVE_POINT",
            "scaleLabels": ["매우 미흡", "미흡", "보통", "우수", "매우 우수"],
        },
        external_id=812201,
    )
    result_content_options = [
        ("응시자 결과표(지원자 공개용)", "ACC_RESULT_APPLICANT_SHEET"),
        ("평가자용 역량 리포트", "ACC_RESULT_VALUER_REPORT"),
        ("AI 역량 요약", "ACC_RESULT_AI_SUMMARY"),
    ]
    pass_criteria = select_ui(
        "합격 기준을 바꿀 전형 선택", node_options((DOCUMENT, ACC)), "nodeId", True
    )
    print_scope = select_ui(
        "인쇄 허용 범위 선택",
        [
            ("인쇄 불가", "PRINT_NOT_ALLOWED"),
            ("전체 평가자", "PRINT_ALL_VALUER"),
            ("최종 평가자", "PRINT_FINAL_VALUER"),
        ],
        "dataValue",
        True,
    )
    llm_ok = ("success", "gpt-4o-mini")

    return [
        PlanQuery(
            "채용사이트 세부 설정을 바꾸고 싶어",
            numbered([check_keyword("채용사이트"), check_form("SELECT"), check_multi(True)]),
            (
                Reply(
                    site_message,
                    [select_ui("채용사이트 설정 전형 선택", node_options(), "nodeId", True)],
                    4.2134,
                    note="checks 3/3; time band <=5",
                ),
                Reply(
                    site_message,
                    [select_ui("채용사이트 설정 전형 선택", node_options(), "nodeId", False)],
                    6.8127,
                    note="multiSelectAllowYn false: 2/3; time band 5-8",
                ),
            ),
        ),
        PlanQuery(
            "블라인드 채용으로 바꾸고 싶어",
            numbered([check_keyword("블라인드"), check_form("SELECT"), check_multi(True)]),
            (
                Reply(
                    blind_message,
                    [
                        select_ui(
                            "블라인드 적용 전형 선택",
                            node_options((DOCUMENT, COORDINATION, INTERVIEW)),
                            "nodeId",
                            False,
                        )
                    ],
                    9.441,
                    llm=(
                        *llm_ok,
                        "4",
                        "블라인드 적용 전형 선택 UI를 제공했으나 복수 선택이 불가능해 기대와 다름",
                    ),
                    note="LLM 점수 4 overrides heuristic 3 (2/3)",
                ),
                Reply(
                    blind_message,
                    [
                        select_ui(
                            "블라인드 적용 전형 선택",
                            node_options((DOCUMENT, COORDINATION, INTERVIEW)),
                            "nodeId",
                            True,
                        )
                    ],
                    8.0,
                    llm=(*llm_ok, "5", "요청 의도 충족. 적용 전형을 복수로 고를 수 있음"),
                    note="LLM 점수 5; time exactly 8.0 (band 4, upper bound inclusive)",
                ),
            ),
        ),
        PlanQuery(
            "서류전형 평가 척도를 5점 척도로 바꿔줘",
            numbered(
                [
                    check_form("ACTION"),
                    check_action(UPDATE),
                    check_data_key("EVALUATION_ITEM_AND_SCALE_SETTING"),
                ],
                style=".",
                blank_after_header=True,
            ),
            (
                Reply(scale_done, [scale_update], 11.2046, note="checks 3/3 -> pass"),
                Reply(
                    scale_ask,
                    [select_ui("평가 척도를 바꿀 전형 선택", node_options(), "nodeId", False)],
                    13.9372,
                    note="asks back with a SELECT: 0/3 -> fail; rounds disagree",
                ),
            ),
        ),
        PlanQuery(
            "채용사이트에 노출할 전형을 여러 개 고르고 싶어",
            "@check formType=SELECT; multiSelectAllowYn=true; assistantMessageContains=채용사이트",
            (
                Reply(
                    expose_message,
                    [select_ui("채용사이트 노출 전형 선택", node_options(), "nodeId", True)],
                    5.0,
                    note="@check form; time exactly 5.0 (band 5)",
                ),
                Reply(
                    expose_message,
                    [select_ui("채용사이트 노출 전형 선택", node_options(), "nodeId", True)],
                    7.3981,
                    note="@check form",
                ),
            ),
        ),
        PlanQuery(
            "지원서 양식 편집 화면 열어줘",
            f"@check formType=ACTION; actionType={EXECUTE}; "
            "buttonKey=APPLICATION_FORM_SETTING_EDIT",
            (
                Reply(
                    form_message, [form_edit], 10.0, note="@check form; time exactly 10.0 (band 3)"
                ),
                Reply(
                    form_message,
                    [as_json_string(form_edit)],
                    9.1052,
                    note="uiValue arrives as a JSON string",
                ),
            ),
        ),
        PlanQuery(
            "역량검사 결과 콘텐츠 설정 바꿔줘",
            (
                f"@check formType=ACTION; actionType={UPDATE}; "
                "dataKey=ACC_SCREENING_RESULT_CONTENTS; buttonKey=ACC_RESULT_CONTENT; "
                "assistantMessageContains=결과 콘텐츠"
            ),
            (
                Reply(
                    result_ask,
                    [
                        select_ui(
                            "결과 콘텐츠 종류 선택", result_content_options, "dataValue", False
                        )
                    ],
                    12.8817,
                    note="5 checks, only the keyword passes (whitespace-insensitive): 1/5",
                ),
                Reply(
                    result_ask,
                    [select_ui("결과 콘텐츠 종류 선택", result_content_options, "dataValue", True)],
                    14.0433,
                    note="1/5 again",
                ),
            ),
        ),
        PlanQuery(
            "채용 계획 전체적으로 한번 검토해줘",
            "\n".join(
                [
                    HEADER_LINE,
                    "1) 채용 계획의 전형 구성을 요약해서 안내하는가",
                    "2) 보완이 필요한 설정을 구체적으로 제안하는가",
                ]
            ),
            (
                Reply(review_1, [], 16.4471, note="expected result has no parsable check"),
                Reply(review_2, [], 21.7208, note="no parsable check; time band >20"),
            ),
            category="Edge case",
        ),
        PlanQuery(
            "1차 면접 일정을 다음 주 화요일부터 잡아줘",
            numbered(
                [
                    check_keyword("면접 일정"),
                    check_form("ACTION"),
                    check_action(UPDATE),
                    check_data_key("INTERVIEW_SCREENING_COORDINATION_SCREENING_PERIOD"),
                ]
            ),
            (
                Reply(error="timeout(120000ms)", note="timeout"),
                Reply(
                    "1차 면접 일정을 2026-09-08(화)부터 2주간으로 잡았어요.\n"
                    "적용하기를 누르면 면접 일정이 저장됩니다.",
                    [interview_period],
                    18.3302,
                    note="checks 4/4; time band 15-20",
                ),
            ),
        ),
        PlanQuery(
            "서류 평가 기간을 3일 연장해줘",
            numbered(
                [
                    check_keyword("평가 기간"),
                    check_form("ACTION"),
                    check_action(UPDATE),
                    check_data_key("SCREENING_EVALUATION_PERIOD"),
                ]
            ),
            (
                Reply(
                    "서류전형 평가 기간을 3일 연장해 8월 31일 18시까지로 바꿀게요.\n"
                    "적용 전 최종 확인 후 반영됩니다.",
                    [evaluation_period],
                    12.5,
                    note="dataKey only at nodeDataSet: 3/4",
                ),
                Reply(error="HTTP 500: Internal Server Error (recruit-plan-api)", note="HTTP 500"),
            ),
        ),
        PlanQuery(
            "면접비 지급 설정해줘",
            numbered(
                [
                    check_form("ACTION"),
                    check_action(UPDATE),
                    check_data_key("INTERVIEW_SCREENING_INTERVIEW_PAY_SETTING"),
                ]
            ),
            (
                Reply("", [], 3.9127, note="empty reply: assistantMessage '' and dataUIList []"),
                Reply(
                    "2차 면접 면접비 지급 설정 화면을 열게요.",
                    [interview_pay],
                    11.6205,
                    note="wrong actionType, dataKey only nested: 1/3",
                ),
            ),
        ),
        PlanQuery(
            "서류전형 평가자 배정해줘",
            numbered([check_keyword("평가자"), check_form("SELECT"), check_multi(True)]),
            (
                Reply(
                    "서류전형에 배정할 평가자를 골라 주세요. 여러 명을 함께 배정할 수 있어요.",
                    [select_ui("서류전형 평가자 선택", evaluator_options(8), "valuerId", True)],
                    13.3145,
                    note="checks 3/3",
                ),
                Reply(
                    "서류전형 평가자 후보 전체 목록이에요. 배정할 평가자를 모두 골라 주세요.",
                    [select_ui("서류전형 평가자 선택", evaluator_options(150), "valuerId", True)],
                    17.9063,
                    truncate=True,
                    note="Raw JSON cut at 32,767 characters (Excel): invalid JSON",
                ),
            ),
        ),
        PlanQuery(
            "역량검사 응시 기간을 3일 늘려줘",
            numbered(
                [
                    check_keyword("응시 기간"),
                    check_form("ACTION"),
                    check_action(UPDATE),
                    check_data_key("ACC_SCREENING_TEST_PERIOD"),
                ]
            ),
            (
                Reply(
                    "역량검사 응시 기간을 3일 늘려 9월 5일까지로 바꿀게요.",
                    [acc_period],
                    7.7406,
                    error_column="SSE stream closed before [DONE]; partial payload recorded",
                    note="오류 column filled while the Raw JSON looks fine",
                ),
                Reply(
                    "역량검사 응시 기간을 9월 5일까지 3일 연장하는 설정을 준비했어요.",
                    [acc_period],
                    6.1248,
                    note="dataKey only nested: 3/4",
                ),
            ),
        ),
        PlanQuery(
            "합격자 결정 기준을 바꾸고 싶어",
            numbered(
                [
                    check_keyword("합격자 결정 기준", curly=True),
                    check_form("SELECT"),
                    check_multi(False),
                ]
            ),
            (
                Reply(
                    error="TypeError: Cannot read properties of undefined (reading 'nodeDataSet')",
                    note="TypeError",
                ),
                Reply(
                    "합격 기준은 전형마다 달라요. 기준을 바꿀 전형을 골라 주세요.",
                    [pass_criteria],
                    9.8816,
                    note="keyword missing, multiSelectAllowYn true (expected false): 1/3",
                ),
            ),
        ),
        PlanQuery(
            "면접 전형 평가항목별 척도를 설정하고 싶어",
            numbered(
                [
                    check_form("ACTION"),
                    check_action(EXECUTE),
                    check_data_key("INTERVIEW_EVALUATION_ITEM_AND_SCALE_SETTING"),
                    check_button_key("INTERVIEW_EVALUATION_ITEM_AND_SCALE_SETTING"),
                ],
                style=".",
                blank_after_header=True,
            ),
            (
                Reply(
                    "2차 면접 평가항목별 척도 설정 화면을 열게요.",
                    [interview_scale],
                    8.6621,
                    llm=(
                        *llm_ok,
                        "4",
                        "평가척도 설정 화면으로 바로 이동시켜 의도는 충족, "
                        "대상 전형 안내가 다소 부족",
                    ),
                    note="LLM 점수 4 (heuristic also 4: dataKey only nested)",
                ),
                Reply(
                    "면접 전형의 평가항목과 척도 설정 화면으로 이동할게요.",
                    [interview_scale],
                    9.9457,
                    llm=("error", "gpt-4o-mini", "", "judge request failed: 429 Too Many Requests"),
                    note="LLM 상태 error without a score: heuristic applies",
                ),
            ),
        ),
        PlanQuery(
            "지원서 인쇄 허용 범위를 최종 평가자로 바꿔줘",
            numbered([check_keyword("인쇄"), check_form("SELECT"), check_multi(True)]),
            (
                Reply(
                    "지원서 인쇄 허용 범위를 바꿀 수 있어요. 아래에서 허용 범위를 골라 주세요.",
                    [print_scope],
                    "12.5",
                    llm=(*llm_ok, "5", "인쇄 허용 범위 선택지를 정확히 제시함"),
                    note="responseTimeSec as a numeric string; LLM 점수 5",
                ),
                Reply(
                    "서류전형 지원서 인쇄 허용 범위 선택지예요. 최종 평가자를 고르면 돼요.",
                    [print_scope],
                    14.2281,
                    note="checks 3/3",
                ),
            ),
        ),
        PlanQuery(
            "2차 면접 전형명을 '임원 면접'으로 바꿔줘",
            numbered(
                [check_form("ACTION"), check_action(UPDATE), check_data_key("SCREENING_NAME")],
                style=".",
            ),
            (
                Reply(
                    "2차 면접 전형명을 '임원 면접'으로 바꿀게요.",
                    [rename],
                    19.2318,
                    note="checks 3/3; band 15-20",
                ),
                Reply(
                    "전형명을 '임원 면접'으로 변경하는 설정이에요.",
                    [rename],
                    20.0,
                    note="time exactly 20.0 (band 1, upper bound inclusive)",
                ),
            ),
        ),
        PlanQuery(
            "채용형태를 추천채용으로 설정해줘",
            numbered([check_form("ACTION"), check_action(UPDATE), check_data_key("RECRUIT_TYPE")]),
            (
                Reply(
                    "채용형태를 추천채용으로 바꿀게요.",
                    [recruit_type_nested],
                    12.1064,
                    note="dataKey only nested: 2/3",
                ),
                Reply(
                    "채용형태를 '추천채용'으로 설정했어요. 적용하기로 저장해 주세요.",
                    [recruit_type_flat],
                    11.4372,
                    note="checks 3/3",
                ),
            ),
        ),
        PlanQuery(
            "공고를 게시하고 싶어",
            numbered(
                [
                    check_keyword("공고"),
                    check_form("ACTION"),
                    check_action(EXECUTE),
                    check_button_key("RECRUIT_NOTICE_PUBLISH"),
                ]
            ),
            (
                Reply(
                    "공고문이 아직 없어서 AI 공고문 만들기부터 열게요.",
                    [posting],
                    26.8154,
                    note="other buttonKey: 3/4; time band >20",
                ),
                Reply(
                    "공고 게시 전에 공고문을 만들어야 해요. AI 공고문 생성 화면을 열게요.",
                    [posting],
                    15.0,
                    note="3/4; time exactly 15.0 (band 2)",
                ),
            ),
        ),
        PlanQuery(
            "일정조율 면접 평가자 배정 화면으로 이동해줘",
            numbered(
                [
                    check_form("ACTION"),
                    check_action(EXECUTE),
                    check_data_key("INTERVIEW_SCREENING_COORDINATION_VALUER_ASSIGNMENT"),
                    check_button_key("INTERVIEW_COORDINATION_SCREENING_EVALUATOR_DETAIL_SETTING"),
                ],
                style=".",
            ),
            (
                Reply(
                    "1차 면접(일정조율) 평가자 배정 화면으로 이동할게요.",
                    [valuer_nested],
                    8.6012,
                    note="dataKey only nested: 3/4",
                ),
                Reply(
                    "평가자 배정 화면으로 이동할게요. "
                    "다른 전형이라면 아래 목록에서 바꿀 수 있어요.",
                    [
                        select_ui(
                            "평가자 배정 전형",
                            node_options((COORDINATION, INTERVIEW)),
                            "nodeId",
                            False,
                        ),
                        valuer_flat,
                    ],
                    9.9035,
                    note="two UI items: the ACTION one passes 4/4",
                ),
            ),
        ),
        PlanQuery(
            "복수지원 허용하도록 바꿔줘",
            numbered(
                [
                    check_keyword("복수지원"),
                    check_form("ACTION"),
                    check_action(UPDATE),
                    check_data_key("MULTIPLE_APPLICATION_SETTING"),
                ]
            ),
            (
                Reply(
                    "복수 지원을 허용하도록 바꾸고, 최대 2개 분야까지 지원할 수 있게 할게요.",
                    [multiple_apply],
                    6.3391,
                    note="'복수 지원' matches '복수지원' without spaces; other actionType: 3/4",
                ),
                Reply(
                    "복수 지원 허용 설정을 켤게요.", [multiple_apply], 4.7059, note="3/4; band <=5"
                ),
            ),
        ),
    ]


def plan_rows(ids: Ids) -> list[list[str]]:
    run_id = ids.uuid()
    queries = plan_queries()
    query_ids = [ids.uuid() for _ in queries]
    conversations = [ids.uuid() for _ in ROUNDS]
    starts = [datetime(2026, 3, 5, 9, 12, 4, 118204), datetime(2026, 3, 5, 9, 12, 10, 640913)]
    rows: list[list[str]] = []
    ordinal = 0
    for round_index, round_label in enumerate(ROUNDS):
        clock = Clock(starts[round_index], ids)
        for query, query_id in zip(queries, query_ids, strict=True):
            reply = query.replies[round_index]
            ordinal += 1
            if reply.error:
                raw = failure_raw(reply, conversations[round_index])
                duration = 120.0 if reply.error.startswith("timeout") else 2.5
            else:
                raw = success_raw(
                    ids, reply, query.text, conversations[round_index], PLAN_CONTEXT, PLAN_STEPS
                )
                duration = seconds_as_float(reply.seconds)
            status, model, score, comment = reply.llm
            rows.append(
                [
                    run_id,
                    ids.uuid(),
                    str(ordinal),
                    query_id,
                    query.text,
                    query.expected,
                    query.category,
                    round_label,
                    clock.stamp(duration),
                    reply.message or "",
                    reply.error_column,
                    "",
                    "",
                    status,
                    model,
                    score,
                    comment,
                    raw_json_cell(raw, reply.truncate),
                ]
            )
    return rows


# --------------------------------------------------------------------------- resume agent

RESUME_CONTEXT: Json = {"recruitNoticeId": 55217, "recruitPlanId": PLAN_ID}
FILTER_STEPS = (Step("APPLICANT_FILTER_WORKER", "지원자 조건 필터링", 1.0),)
COUNT_STEPS = (Step("APPLICANT_AGGREGATION_WORKER", "지원자 열 기준 집계", 1.0),)
ANALYSIS_STEPS = (
    Step("APPLICANT_QUERY_PLANNER", "질의 분해 및 실행 계획 수립", 0.18),
    Step("APPLICANT_FILTER_WORKER", "조건별 지원자 추출", 0.34),
    Step("APPLICANT_ANALYTICS_WORKER", "점수·지망 통계 분석 및 요약", 0.48),
)


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


def choice_ui(description: str, options: Sequence[tuple[str, str]], field: str) -> Json:
    return select_ui(description, options, field, False)


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


@dataclass(frozen=True)
class ResumeQuery:
    query_id: str
    text: str
    expected: str
    category: str
    replies: tuple[Reply, Reply]


def resume_queries() -> list[ResumeQuery]:
    steps_note = "Track 3 replies carry 3 executionProcesses/worker entries"
    return [
        ResumeQuery(
            "F-01",
            "여성 지원자만 보여줘",
            "성별=여성 조건으로 필터링된 지원자 목록 링크를 제공한다.",
            "단일 필터",
            (
                Reply(
                    "여성 지원자 412명을 찾았어요. 아래 버튼으로 목록을 열 수 있어요.",
                    [link_ui("여성 지원자 목록", {"gender": "F"}, 412)],
                    6.2184,
                    track="Track 1",
                    note="ok; single band 5-8",
                ),
                Reply(
                    "성별이 여성인 지원자는 412명이에요.",
                    [link_ui("여성 지원자 목록", {"gender": "F"}, 412)],
                    4.4107,
                    track="Track 1",
                    note="ok; single band <=5",
                ),
            ),
        ),
        ResumeQuery(
            "F-02",
            "서울 거주 지원자만 보여줘",
            "거주지=서울 조건의 지원자 목록 링크를 제공한다.",
            "단일 필터",
            (
                Reply(
                    "서울에 거주하는 지원자는 288명이에요.",
                    [link_ui("서울 거주 지원자", {"region": "서울특별시"}, 288)],
                    11.8033,
                    track="1",
                    note="ok; Track written '1'; Korean value URL-encoded",
                ),
                Reply(
                    "서울 거주 지원자 288명 목록이에요.",
                    [link_ui("서울 거주 지원자", {"region": "서울특별시"}, 288)],
                    12.6475,
                    track="1",
                    note="ok",
                ),
            ),
        ),
        ResumeQuery(
            "F-03",
            "경력 3년 이상 지원자만 필터링해줘",
            "경력 연수 3년 이상 조건의 지원자 목록 링크를 제공한다.",
            "단일 필터",
            (
                Reply(
                    "경력 3년 이상인 지원자 175명을 추렸어요.",
                    [link_ui("경력 3년 이상", {"careerYears": {"gte": 3}}, 175)],
                    9.2266,
                    track="Track 1",
                    note="ok; single band 8-10",
                ),
                Reply(
                    "경력 3년 이상 지원자는 175명이에요. 목록 링크를 붙였어요.",
                    [link_ui("경력 3년 이상", {"careerYears": {"gte": 3}}, 175)],
                    16.7309,
                    track="Track 1",
                    note="ok; single band 15-20",
                ),
            ),
        ),
        ResumeQuery(
            "F-04",
            "최근 지원한 지원자만 보여줘",
            "최근 지원 기간 조건의 지원자 목록 링크를 제공한다.",
            "단일 필터",
            (
                Reply(
                    "'최근'의 기준이 필요해요. "
                    "기간을 알려주시면 해당 기간의 지원자만 보여드릴게요.",
                    [],
                    7.9508,
                    track="T1",
                    note="partial: asks for the period",
                ),
                Reply(
                    "최근 7일(2026-02-27 ~ 2026-03-05) 동안 지원한 지원자는 64명이에요.",
                    [link_ui("최근 7일 지원자", {"appliedAt": {"gte": "2026-02-27"}}, 64)],
                    23.9412,
                    track="T1",
                    note="ok; single band >20",
                ),
            ),
        ),
        ResumeQuery(
            "F-05",
            "석사 이상 학력 지원자만 보여줘",
            "최종학력 석사 이상 조건의 지원자 목록을 제공한다.",
            "단일 필터",
            (
                Reply(
                    "석사 이상 지원자 96명을 찾았어요.",
                    [link_ui("석사 이상 지원자", {"education": {"in": ["MASTER", "DOCTOR"]}}, 96)],
                    14.9021,
                    track="Track 1",
                    note="ok",
                ),
                Reply(
                    "석사 이상 지원자 312명을 찾았어요. 상위 300명을 표로 보여드려요.",
                    [
                        table_ui(
                            "석사 이상 지원자",
                            ["수험번호", "이름", "최종학력", "1지망", "서류점수", "비고"],
                            applicant_rows(300),
                        ),
                        link_ui(
                            "석사 이상 지원자", {"education": {"in": ["MASTER", "DOCTOR"]}}, 312
                        ),
                    ],
                    13.0588,
                    track="Track 1",
                    truncate=True,
                    note="Raw JSON cut at 32,767 characters; 응답 still holds the message",
                ),
            ),
        ),
        ResumeQuery(
            "C-01",
            "성별 지원자 수 집계해줘",
            "성별 기준 지원자 수 집계 표를 제공한다.",
            "열 집계",
            (
                Reply(
                    "성별 지원자 수를 집계했어요. 여성이 조금 더 많아요.",
                    [
                        table_ui(
                            "성별 지원자 수",
                            ["성별", "지원자 수", "비율(%)"],
                            [
                                ["여성", "412", "52.4"],
                                ["남성", "371", "47.2"],
                                ["미기재", "3", "0.4"],
                            ],
                        )
                    ],
                    10.4172,
                    track="2",
                    note="ok; TABLE",
                ),
                Reply(
                    "성별 집계 결과예요.",
                    [
                        table_ui(
                            "성별 지원자 수",
                            ["성별", "지원자 수", "비율(%)"],
                            [
                                ["여성", "412", "52.4"],
                                ["남성", "371", "47.2"],
                                ["미기재", "3", "0.4"],
                            ],
                        )
                    ],
                    8.8369,
                    track="Track 2",
                    note="ok; Track written differently per round",
                ),
            ),
        ),
        ResumeQuery(
            "C-02",
            "연령대별 지원자 수 집계해줘",
            "연령대 기준 지원자 수 집계 표를 제공한다.",
            "열 집계",
            (
                Reply(
                    "연령대별 지원자 수예요. 20대 후반이 가장 많아요.",
                    [
                        table_ui(
                            "연령대별 지원자 수",
                            ["연령대", "지원자 수"],
                            [
                                ["20대 초반", "158"],
                                ["20대 후반", "402"],
                                ["30대 초반", "171"],
                                ["30대 후반 이상", "55"],
                            ],
                        )
                    ],
                    19.6254,
                    track="Track 2",
                    note="ok; single band 15-20",
                ),
                Reply(error="timeout(120000ms)", track="Track 2", note="timeout; rounds disagree"),
            ),
        ),
        ResumeQuery(
            "C-03",
            "1지망 직무별 지원자 수 집계해줘",
            "1지망 직무 기준 지원자 수 집계 표를 제공한다.",
            "열 집계",
            (
                Reply("", [], 3.1066, track="2", note="empty reply; rounds disagree"),
                Reply(
                    "1지망 기준으로 집계할 전형이 여러 개예요. 원하시는 전형을 선택해 주세요.",
                    [
                        choice_ui(
                            "집계 기준 전형", [("서류전형", "9121"), ("역량검사", "9122")], "nodeId"
                        )
                    ],
                    10.9913,
                    track="2",
                    note="partial: asks to choose the screening",
                ),
            ),
        ),
        ResumeQuery(
            "T-01",
            "서류 평가 점수 상위 10명 중 1지망 지원자 분석해줘",
            "서류 점수 상위 10명 중 1지망 지원자의 분포와 특징을 분석한다.",
            "복합 시나리오",
            (
                Reply(
                    "서류 평가 점수 상위 10명 중 7명이 1지망 지원자예요.\n"
                    "- 1지망 7명 평균 서류점수 91.4점, 2지망 3명 88.9점\n"
                    "- 1지망 7명 중 5명이 영업 직무",
                    [
                        table_ui(
                            "상위 10명 지망 분포",
                            ["지망", "인원", "평균 서류점수"],
                            [["1지망", "7", "91.4"], ["2지망", "3", "88.9"]],
                        ),
                        link_ui(
                            "상위 10명 중 1지망",
                            {"documentScoreRank": {"lte": 10}, "wishOrder": 1},
                            7,
                        ),
                    ],
                    18.2217,
                    track="T3",
                    note=f"ok; multi band <=20; {steps_note}",
                ),
                Reply(
                    "상위 10명 가운데 1지망 지원자는 7명이고 평균 서류점수는 91.4점이에요.",
                    [
                        table_ui(
                            "상위 10명 지망 분포",
                            ["지망", "인원", "평균 서류점수"],
                            [["1지망", "7", "91.4"], ["2지망", "3", "88.9"]],
                        )
                    ],
                    27.5034,
                    track="T3",
                    note="ok; multi band 20-30",
                ),
            ),
        ),
        ResumeQuery(
            "T-02",
            "면접 합격자 중 서류 점수 하위 20% 지원자 특징 분석해줘",
            "면접 합격자 중 서류 점수 하위 20% 지원자의 공통 특징을 분석한다.",
            "복합 시나리오",
            (
                Reply(error="timeout(120000ms)", track="Track 3", note="timeout; rounds disagree"),
                Reply(
                    "면접 합격자 48명 중 서류 점수 하위 20%는 10명이에요.\n"
                    "이 중 8명이 직무 관련 프로젝트 경험이 있고, 6명이 인턴 경력이 있어요.",
                    [
                        table_ui(
                            "하위 20% 특징",
                            ["특징", "인원"],
                            [["직무 프로젝트 경험", "8"], ["인턴 경력", "6"], ["관련 자격증", "4"]],
                        )
                    ],
                    36.1187,
                    track="Track 3",
                    note="ok; multi band 30-40",
                ),
            ),
        ),
        ResumeQuery(
            "T-03",
            "최근 3년 공채 지원자의 학력·경력 분포를 비교해줘",
            "연도별 공채 지원자의 학력·경력 분포 비교표를 제공한다.",
            "복합 시나리오",
            (
                Reply(
                    "최근 3년 공채 지원자의 학력·경력 분포를 비교했어요. "
                    "석사 비율이 해마다 늘었어요.",
                    [
                        table_ui(
                            "연도별 학력 분포",
                            ["연도", "학사", "석사", "박사", "경력 3년+"],
                            [
                                ["2024", "71%", "24%", "5%", "18%"],
                                ["2025", "68%", "27%", "5%", "21%"],
                                ["2026", "64%", "30%", "6%", "23%"],
                            ],
                        )
                    ],
                    44.7065,
                    track="T3",
                    note="ok; multi band 40-50",
                ),
                Reply(
                    "비교할 기간을 알려주시면 더 정확히 볼 수 있어요. 우선 비교 기준이 되는 "
                    "전형도 필요해요. 원하시는 전형을 선택해 주세요.",
                    [
                        choice_ui(
                            "비교 기준 전형", [("서류전형", "9121"), ("2차 면접", "9124")], "nodeId"
                        )
                    ],
                    52.3378,
                    track="T3",
                    note="partial; multi band 50-60",
                ),
            ),
        ),
        ResumeQuery(
            "T-04",
            "영업직 지원자 중 서류·인적성 점수가 모두 상위 30%인 지원자 추려서 분석해줘",
            "두 점수 모두 상위 30%인 영업직 지원자 목록과 특징을 제공한다.",
            "복합 시나리오",
            (
                Reply(
                    "영업직 지원자 203명 중 서류·인적성 점수가 "
                    "모두 상위 30%인 지원자는 38명이에요.",
                    [
                        link_ui(
                            "영업직 상위 30% 교집합",
                            {
                                "job": "영업",
                                "documentScorePct": {"gte": 70},
                                "aptitudeScorePct": {"gte": 70},
                            },
                            38,
                        )
                    ],
                    63.8091,
                    track="Track 3",
                    note="ok; multi band >60",
                ),
                Reply(
                    error="HTTP 500: Internal Server Error (applicant-analytics)",
                    track="Track 3",
                    note="HTTP 500; rounds disagree",
                ),
            ),
        ),
    ]


def resume_steps(query_id: str) -> tuple[Step, ...]:
    if query_id.startswith("T-"):
        return ANALYSIS_STEPS
    if query_id.startswith("C-"):
        return COUNT_STEPS
    return FILTER_STEPS


def resume_rows(ids: Ids) -> list[list[str]]:
    run_id = ids.uuid()
    queries = resume_queries()
    conversations = [ids.uuid() for _ in ROUNDS]
    starts = [datetime(2026, 3, 5, 14, 2, 31, 507218), datetime(2026, 3, 5, 14, 2, 38, 91334)]
    rows: list[list[str]] = []
    ordinal = 0
    for round_index, round_label in enumerate(ROUNDS):
        clock = Clock(starts[round_index], ids)
        for query in queries:
            reply = query.replies[round_index]
            ordinal += 1
            if reply.error:
                raw = failure_raw(reply, conversations[round_index])
                duration = 120.0 if reply.error.startswith("timeout") else 4.0
            else:
                raw = success_raw(
                    ids,
                    reply,
                    query.text,
                    conversations[round_index],
                    RESUME_CONTEXT,
                    resume_steps(query.query_id),
                )
                duration = seconds_as_float(reply.seconds)
            status, model, score, comment = reply.llm
            rows.append(
                [
                    run_id,
                    ids.uuid(),
                    str(ordinal),
                    query.query_id,
                    reply.track,
                    query.text,
                    query.expected,
                    query.category,
                    round_label,
                    clock.stamp(duration),
                    reply.message or "",
                    reply.error_column,
                    "",
                    "",
                    status,
                    model,
                    score,
                    comment,
                    raw_json_cell(raw, reply.truncate),
                ]
            )
    return rows

# --------------------------------------------------------------------------- url agent
# The navigation agent (이동 에이전트) answers with a button whose buttonUrl opens a screen;
# 기대결과 names the screen by its dataKey and/or its URL. Its own generator seed, so the
# plan and resume samples stay as they are.

URL_SEED = SEED + 2
URL_HOST = "https://recruit.example.co.kr"
URL_STEPS = (Step("MENU_NAVIGATION_WORKER", "메뉴 이동 경로 탐색", 1.0),)
URL_CONTEXT: Json = {"recruitPlanId": PLAN_ID}


def button(name: str, url: str, as_string: bool = False) -> Json:
    value: Json = {"formType": "LINK", "buttonName": name, "buttonUrl": url}
    shown = json.dumps(value, ensure_ascii=False) if as_string else value
    return {"uiDescription": f"{name} 화면으로 이동", "uiValue": shown}


def plan_url(path: str, data_key: str | None = None, plan_id: int = PLAN_ID) -> str:
    query = f"?dataKey={data_key}" if data_key else ""
    return f"{URL_HOST}/recruit-plan/{plan_id}/{path}{query}"


def expect_key(data_key: str, path: str | None = None) -> str:
    where = f"/recruit-plan/{{planId}}/{path}?dataKey={data_key}" if path else f"dataKey={data_key}"
    return f"이동 버튼의 buttonUrl이 다음과 일치해야 함 ->:\n기대 URL: {where}"


def expect_path(path: str) -> str:
    return f"이동 버튼의 buttonUrl 경로가 /recruit-plan/{{planId}}/{path} 이어야 함 (dataKey 없음)"


def go(name: str, url: str, seconds: float, note: str, as_string: bool = False) -> Reply:
    return Reply(f"{name} 화면으로 이동할 수 있어요. 아래 버튼을 눌러 주세요.",
                 [button(name, url, as_string)], seconds, note=note)


def url_queries() -> list[PlanQuery]:
    site, criteria = "site-setting", "document/evaluation"
    return [
        PlanQuery("채용사이트 세부 설정 화면으로 가줘", expect_key("SITE_DETAIL_SETTING", site), (
            go("채용사이트 세부 설정", plan_url(site, "SITE_DETAIL_SETTING"), 3.2, "5; band 5"),
            go("채용사이트 세부 설정", plan_url(site, "SITE_DETAIL_SETTING"), 4.1, "5"),
        )),
        PlanQuery("서류전형 평가 기준 설정으로 이동해줘",
                  expect_key("DOC_EVAL_CRITERIA", criteria), (
            go("서류 평가 기준", plan_url(criteria, "DOC_EVAL_CRITERIA"), 6.0, "5; band 4"),
            go("서류 평가 척도", plan_url(criteria, "DOC_EVAL_SCALE"), 7.4,
               "same page, other dataKey: 3 (0 when strict)"),
        )),
        PlanQuery("지원서 양식 편집하는 곳 알려줘", expect_key("APPLICATION_FORM"), (
            go("지원서 양식", plan_url("application/form", "APPLICATION_FORM"), 9.5,
               "key only expected; band 3"),
            go("지원서 접수 기간", plan_url("application/period", "APPLICATION_PERIOD"), 9.9,
               "wrong key, other page: URL 불일치, consistency mismatch"),
        )),
        PlanQuery("면접 일정 조율 화면 열어줘", expect_path("interview/schedule"), (
            go("면접 일정 조율", plan_url("interview/schedule/", "INTERVIEW_SLOT"), 12.0,
               "path expected; host, trailing slash and query ignored; band 2"),
            go("면접 일정 조율", f"/recruit-plan/{PLAN_ID}/interview/schedule", 11.2,
               "relative URL"),
        )),
        PlanQuery("역량검사 응시 안내 메일 설정", expect_path("acc/notice-mail"), (
            go("역량검사 결과", plan_url("acc/result"), 17.0, "other path: URL 불일치; band 1"),
            go("역량검사 결과", plan_url("acc/result"), 16.4, "both fail"),
        )),
        PlanQuery("합격자 발표 문구는 어디서 바꿔?", expect_key("PASS_ANNOUNCE_TEXT", "announce"), (
            Reply("합격자 발표 문구 설정 메뉴를 찾지 못했어요. 메뉴 이름을 다시 알려주시겠어요?",
                  [], 5.5, note="no button: URL 미반환"),
            Reply("해당 설정은 채용 공고 편집에서 바꿀 수 있어요.", [], 6.3, note="URL 미반환"),
        )),
        PlanQuery("채용 공고 게시 기간 설정으로", expect_key("NOTICE_PERIOD", "notice"), (
            go("공고 게시 기간", plan_url("notice", "NOTICE_PERIOD"), 8.0, "5; band 4 (exactly 8)"),
            Reply(error="timeout(120000ms)", note="error: gated to 0"),
        )),
        PlanQuery("평가자 배정 화면으로 이동", expect_key("EVALUATOR_ASSIGN", "evaluators"), (
            go("평가자 배정", plan_url("evaluators", "EVALUATOR_ASSIGN"), 10.0,
               "uiValue sent as a JSON string; band 3 (exactly 10)", as_string=True),
            go("평가자 배정", plan_url("evaluators", "EVALUATOR_ASSIGN"), 10.001,
               "band 2", as_string=True),
        )),
        PlanQuery("전형 단계 순서 바꾸는 메뉴", expect_key("STAGE_ORDER", "stages"), (
            Reply("전형 관련 메뉴가 두 개 있어요.", [
                button("전형 목록", plan_url("stages", "STAGE_LIST")),
                button("전형 순서", plan_url("stages", "STAGE_ORDER")),
            ], 13.0, note="the second of two buttons carries the key: 5"),
            Reply("전형 관련 메뉴가 두 개 있어요.", [
                button("전형 목록", plan_url("stages", "STAGE_LIST")),
                button("전형 순서", plan_url("stages", "STAGE_ORDER")),
            ], 14.5, note="5"),
        )),
        PlanQuery("오퍼레터 템플릿 편집", expect_key("OFFER_LETTER", "offer"), (
            go("오퍼레터", f"{URL_HOST}/recruit-plan/{PLAN_ID}/offer?dataKey=OFFER%5FLETTER", 19.9,
               "URL-encoded dataKey: 5; band 1"),
            go("오퍼레터", plan_url("offer", "OFFER_LETTER"), 20.0, "band 1 (exactly 20)"),
        )),
        PlanQuery("다른 채용 계획의 결과 발표 설정", expect_path("result/announce"), (
            go("결과 발표", plan_url("result/announce", plan_id=3108), 25.0,
               "{planId} matches any number: 5; band 0"),
            go("결과 발표", plan_url("result/announce", plan_id=3108), 21.3, "band 0"),
        )),
        PlanQuery("채용 대시보드 보여줘", "대시보드 화면으로 안내한다 (URL 기준 없음)", (
            go("대시보드", f"{URL_HOST}/dashboard", 4.4, "nothing to compare: no_checks"),
            go("대시보드", f"{URL_HOST}/dashboard", 4.9, "no_checks"),
        ), category="Edge case"),
        PlanQuery("면접비 지급 설정 화면", expect_key("INTERVIEW_FEE", "interview/fee"), (
            go("면접비", plan_url("interview/fee"), 7.7,
               "same page but no dataKey at all: URL 불일치 (0)"),
            go("면접비", plan_url("interview/fee", "INTERVIEW_FEE"), 7.9, "5: mismatch"),
        )),
        PlanQuery("블라인드 채용 설정으로 이동", expect_key("BLIND_SETTING", "blind"), (
            replace(
                go("블라인드", plan_url("blind", "BLIND_SETTING"), 5.0,
                   "band 5 (exactly 5); LLM 점수 4 replaces intent, not accuracy"),
                llm=("success", "gpt-4o-mini", "4", "버튼 문구가 다소 모호함"),
            ),
            go("블라인드", plan_url("blind", "BLIND_SETTING"), 5.001, "band 4"),
        )),
        PlanQuery("지원자 일괄 메일 발송 화면", expect_key("BULK_MAIL", "mail"), (
            Reply(None, None, 2.1, note="empty reply: gated to 0"),
            go("메일 발송", plan_url("mail", "BULK_MAIL"), 6.6, "5"),
        )),
        PlanQuery("채용 계획 복사하기", expect_key("PLAN_COPY", "copy"), (
            go("계획 복사", plan_url("copy", "PLAN_COPY"), "8.5", "numeric-string seconds"),
            Reply(error="HTTP 502: Bad Gateway (menu-navigation-api)", note="error"),
        ), category="Happy path"),
    ]


def url_rows(ids: Ids) -> list[list[str]]:
    run_id = ids.uuid()
    queries = url_queries()
    query_ids = [ids.uuid() for _ in queries]
    conversations = [ids.uuid() for _ in ROUNDS]
    starts = [datetime(2026, 3, 6, 14, 2, 11, 402117), datetime(2026, 3, 6, 14, 2, 19, 73540)]
    rows: list[list[str]] = []
    ordinal = 0
    for round_index, round_label in enumerate(ROUNDS):
        clock = Clock(starts[round_index], ids)
        for query, query_id in zip(queries, query_ids, strict=True):
            reply = query.replies[round_index]
            ordinal += 1
            if reply.error:
                raw = failure_raw(reply, conversations[round_index])
                duration = 120.0 if reply.error.startswith("timeout") else 2.5
            else:
                raw = success_raw(
                    ids, reply, query.text, conversations[round_index], URL_CONTEXT, URL_STEPS
                )
                duration = seconds_as_float(reply.seconds)
            status, model, score, comment = reply.llm
            rows.append([
                run_id, ids.uuid(), str(ordinal), query_id, query.text, query.expected,
                query.category, round_label, clock.stamp(duration), reply.message or "",
                reply.error_column, "", "", status, model, score, comment,
                raw_json_cell(raw, reply.truncate),
            ])
    return rows



def main() -> None:
    ids = Ids(SEED)
    plan = plan_rows(ids)
    resume = resume_rows(ids)
    write_csv(PLAN_PATH, PLAN_HEADER, plan)
    write_csv(RESUME_PATH, RESUME_HEADER, resume)
    url = url_rows(Ids(URL_SEED))
    write_csv(URL_PATH, PLAN_HEADER, url)
    for path, rows in ((PLAN_PATH, plan), (RESUME_PATH, resume), (URL_PATH, url)):
        print(f"{path.relative_to(ROOT)}: {len(rows)} rows")
    # The published-report fixture has its own generator (runnable on its own); run it too so
    # that this one command regenerates every sample file.
    runpy.run_path(str(FIXTURE_SCRIPT), run_name="__main__")


if __name__ == "__main__":
    main()
