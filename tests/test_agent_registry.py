"""The agent registry drives the shared code; the reports built on it are those of before.

- No shared model, macro, test, reporter module or the generic template names an agent.
- The plan and resume reports are byte-identical to tests/golden/ (the real plan file's
  report by its sha256, so that nothing of the real data is committed); without the sections
  added since, they are byte-identical to the ones published before the generic report
  existed (main at 3d4a6fc).
- The URL agent's rule on its bundled sample, and its report.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml
from agent_scoring.reports import render_report
from conftest import REAL_PLAN
from support.markdown import (
    table_with_header,
    tables,
    without_charts,
    without_intervals,
    without_sections,
)
from support.warehouse import REPO, all_rows, one

GOLDEN = REPO / "tests" / "golden"
AGENTS = sorted(yaml.safe_load((REPO / "dbt_project.yml").read_text())["vars"]["agents"])
SHARED = [
    *REPO.glob("models/marts/**/*"),
    *REPO.glob("models/staging/**/*"),
    *REPO.glob("models/intermediate/scoring/*"),
    *REPO.glob("macros/**/*"),
    *REPO.glob("tests/dbt/*"),
    REPO / "scripts/agent_scoring/reports/__init__.py",
    REPO / "scripts/agent_scoring/reports/common.py",
    REPO / "scripts/agent_scoring/reports/data_quality.py",
    REPO / "scripts/agent_scoring/templates/generic_report.md.j2",
    REPO / "scripts/agent_scoring/templates/_data_quality.md.j2",
    REPO / "scripts/agent_scoring/templates/_repeats.md.j2",
]
# the real plan export's report, by digest
# (issue 39: the check_paths hint names docs/rules.md, the page that explains it)
REAL_PLAN_REPORT_SHA256 = "7868c560305f67e196163a962408c850731a808c0c5f0dc51aa6af0a88545f69"
# the sections added since 3d4a6fc, and each report as it was then (without them, the 95%
# intervals and the charts), by digest
ADDED_SECTIONS = ("반복 실행: pass@k · pass^k", "LLM 채점 검증", "2점 이상 차이 나는 문항",
                  "플랫폼 지표", "카테고리별 실패 패턴", "운영 체크리스트")
BEFORE_SHA256 = {
    "plan_agent_sample.csv": "a404d41a31ce9c9aa5738c93213c81aa28be36224d7832d57e9a98ffb3fced92",
    "resume_agent_sample.csv": "dfd28cec113a9aa0cface42e9b20c3b0767d5d007bbbaccdcc57c53167142349",
    "resume_agent_published.csv":
        "0ad43f968812f0956de4dc724c266f303d02cdfb6405660dd3ceec2b4aa5cac5",
    "plan_agent_260224.csv": "ddae769a075908509a2aa760ee13f402e46aa48d998a98696778bd19226a8743",
}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def before(text: str) -> str:
    """A report as it was at 3d4a6fc: the figures and charts added since left out, and the
    check_paths hint pointing where it pointed then."""
    text = text.replace("(docs/rules.md 참조)", "(README 참조)")
    return without_sections(without_charts(without_intervals(text)), ADDED_SECTIONS)


def test_the_bundled_agents_are_registered():
    # an agent added by the README's steps joins them; none of these may go missing
    assert {"plan_agent", "resume_agent", "url_agent"} <= set(AGENTS)


@pytest.mark.parametrize("path", [p for p in SHARED if p.is_file()],
                         ids=lambda p: str(p.relative_to(REPO)))
def test_no_shared_file_names_an_agent(path: Path):
    text = path.read_text(encoding="utf-8")
    assert [a for a in AGENTS if a in text] == []


@pytest.mark.parametrize(
    ("agent", "source_file"),
    [
        # its golden has the real plan export (dated before it) as the previous run
        pytest.param("plan_agent", "plan_agent_sample.csv", marks=pytest.mark.skipif(
            not REAL_PLAN.exists(), reason="needs ../shared/real-data (its previous run)")),
        ("resume_agent", "resume_agent_sample.csv"),
        ("resume_agent", "resume_agent_published.csv"),
    ],
)
def test_plan_and_resume_reports_are_byte_identical_to_before(con, agent, source_file):
    golden = GOLDEN / f"{Path(source_file).stem}_score_summary.md"
    text = render_report(con, agent, source_file)
    assert text == golden.read_text(encoding="utf-8")
    assert digest(before(text)) == BEFORE_SHA256[source_file]
    assert "(95% CI " in text


@pytest.mark.skipif(not REAL_PLAN.exists(), reason="needs ../shared/real-data")
def test_the_real_plan_report_is_byte_identical_to_before(con):
    text = render_report(con, "plan_agent", REAL_PLAN.name)
    assert digest(text) == REAL_PLAN_REPORT_SHA256
    assert digest(before(text)) == BEFORE_SHA256[REAL_PLAN.name]


URL_FILE = "url_agent_sample.csv"


def url_item(con, query_text: str, round_label: str) -> dict:
    return one(
        con,
        """
        select i.*, m.match_kind, m.failure_reason, m.button_urls
        from item_scores as i
        inner join url_agent__url_matches as m using (source_file, record_no)
        where i.source_file = ? and i.query_text = ? and i.round_label = ?
        """,
        [URL_FILE, query_text, round_label],
    )


@pytest.mark.parametrize(
    ("query", "round_label", "match_kind", "accuracy", "reason"),
    [
        ("채용사이트 세부 설정 화면으로 가줘", "1/1", "data_key", 5, None),
        ("서류전형 평가 기준 설정으로 이동해줘", "2/1", "path_only", 3, "URL 불일치"),
        ("지원서 양식 편집하는 곳 알려줘", "2/1", "mismatch", 0, "URL 불일치"),
        ("면접 일정 조율 화면 열어줘", "1/1", "path", 5, None),
        ("합격자 발표 문구는 어디서 바꿔?", "1/1", "no_url", 0, "URL 미반환"),
        ("채용 공고 게시 기간 설정으로", "2/1", "error", 0, "URL 미반환"),
        ("평가자 배정 화면으로 이동", "1/1", "data_key", 5, None),  # uiValue as a JSON string
        ("오퍼레터 템플릿 편집", "1/1", "data_key", 5, None),  # URL-encoded dataKey
        ("다른 채용 계획의 결과 발표 설정", "1/1", "path", 5, None),  # {planId}
        ("면접비 지급 설정 화면", "1/1", "mismatch", 0, "URL 불일치"),
        ("채용 대시보드 보여줘", "1/1", "no_expectation", None, None),
    ],
)
def test_url_sample_items_score_by_the_url_rule(con, query, round_label, match_kind,
                                                accuracy, reason):
    r = url_item(con, query, round_label)
    assert (r["match_kind"], r["accuracy_score"], r["failure_reason"]) == (
        match_kind, accuracy, reason)


def test_url_llm_score_replaces_intent_but_not_accuracy(con):
    r = url_item(con, "블라인드 채용 설정으로 이동", "1/1")
    assert (r["score_source"], r["intent_score"], r["accuracy_score"]) == ("llm", 4.0, 5.0)


def test_url_consistency_passes_on_accuracy(con):
    found = {r["query_id"]: r["verdict"] for r in all_rows(
        con, "select q.query_id, q.verdict from query_consistency as q "
        "where q.source_file = ? and q.track = 'all'", [URL_FILE])}
    texts = {r["query_id"]: r["query_text"] for r in all_rows(
        con, "select distinct query_id, query_text from item_scores where source_file = ?",
        [URL_FILE])}
    verdict = {texts[q]: v for q, v in found.items()}
    assert verdict["서류전형 평가 기준 설정으로 이동해줘"] == "all_pass"  # 5 then 3
    assert verdict["지원서 양식 편집하는 곳 알려줘"] == "mismatch"  # 5 then 0
    assert verdict["역량검사 응시 안내 메일 설정"] == "all_fail"
    assert verdict["채용 대시보드 보여줘"] == "not_eligible"


def test_url_report_counts_accuracy_as_the_team_does(con):
    text = render_report(con, "url_agent", URL_FILE)
    assert text.startswith("# 이동 에이전트 스코어링 요약 (url\\_agent\\_sample)\n")
    accuracy = table_with_header(text, "회차", "성공(5점)")
    assert accuracy[1:] == [
        ["1/1", "73.33%", "11개", "0개", "4개", "1개", "3.67"],
        ["2/1", "60.00%", "9개", "1개", "5개", "1개", "3.20"],
        ["세트", "66.67%", "20개", "1개", "9개", "2개", "3.43"],
    ]
    reasons = table_with_header(text, "사유", "건수")
    assert reasons[1:] == [["URL 미반환", "5", "1/1, 2/1"], ["URL 불일치", "5", "1/1, 2/1"]]
    failed = table_with_header(text, "Query ID", "반환 URL")
    assert len(failed) == 1 + 10
    assert "4.28" in text.split("## 비고", 1)[1]
    assert all(len({len(row) for row in table}) == 1 for table in tables(text))
