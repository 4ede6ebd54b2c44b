"""The RAG marts and report on the committed samples, with human labels and hostile text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from agent_scoring.cli import main
from agent_scoring.markdown import render
from agent_scoring.reports.rag import REPORTER
from click.testing import CliRunner
from support.agreement import binary_agreement
from support.markdown import html_tokens, tables_by_heading
from support.warehouse import SAMPLES, all_rows, build, copy_inputs, one

RAG = ["tag:rag"]  # only this seeds, models and tests

FIXTURES = Path(__file__).parent / "fixtures" / "rag"
RUN_1 = "evaluation_report_sample_20251210_100000.json"
RUN_2 = "evaluation_report_sample_20251211_100000.json"
HOSTILE_REASONING = (
    "첫 줄 | 파이프 포함\n둘째 줄 <script>alert('x')</script>\r\n셋째 줄 `코드` \\ 끝"
)
HOSTILE_QUESTION = "edge_multi_001"  # fails in run 2, so its reasoning is in the report
FLIPPED_QUESTION = "in_concept_001"  # stored `passed` flipped to false: a discrepancy


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    work = tmp_path_factory.mktemp("rag_sample")
    inputs = copy_inputs(
        [
            SAMPLES / "qa_dataset_sample.json",
            SAMPLES / RUN_1,
            SAMPLES / RUN_2,
            FIXTURES / "rag_hallucination_labels_sample.csv",
        ],
        work / "input",
    )
    report_path = inputs / RUN_2
    report = json.loads(report_path.read_text(encoding="utf-8"))
    for result in report["results"]:
        if result["question_id"] == HOSTILE_QUESTION:
            result["judge"]["reasoning"] = HOSTILE_REASONING
        if result["question_id"] == FLIPPED_QUESTION:
            result["passed"] = False
    report_path.write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    return build(inputs, work, select=RAG)


@pytest.fixture(scope="module")
def con(warehouse):
    with warehouse.connect() as connection:
        yield connection


def accuracy(con, run_id: str) -> dict:
    return one(
        con,
        """
        select * from rag_success_criteria
        where run_id = ? and criterion_id = 'hallucination_detection_accuracy'
        """,
        [run_id],
    )


# --- inputs ------------------------------------------------------------------------------


def test_sample_dataset_has_about_a_dozen_questions_in_every_category(con):
    counts = dict(
        con.execute(
            "select category, count(*) from stg_rag__questions group by category"
        ).fetchall()
    )
    assert counts == {"in_domain": 6, "out_of_domain": 3, "edge_case": 3}


def test_every_sample_result_is_a_row_and_nothing_is_dropped(con):
    for run_id in (RUN_1, RUN_2):
        s = one(con, "select * from rag_run_scores where run_id = ?", [run_id])
        assert s["questions"] == 12
        assert s["questions_not_in_dataset"] == 0
        assert s["dataset_questions_not_run"] == 0


def test_an_errored_answer_fails_and_counts_as_zero_in_the_in_domain_mean(con):
    row = one(
        con,
        "select * from rag_judgements where run_id = ? and question_id = 'in_course_001'",
        [RUN_2],
    )
    assert row["judge_status"] == "error"
    assert row["overall_score"] is None
    assert row["passed"] is False
    c = one(
        con,
        "select * from rag_success_criteria"
        " where run_id = ? and criterion_id = 'in_domain_mean_score'",
        [RUN_2],
    )
    judged = all_rows(
        con,
        """
        select overall_score from rag_judgements
        where run_id = ? and category = 'in_domain' and judge_status = 'judged'
        """,
        [RUN_2],
    )
    assert c["denominator"] == 6
    assert c["measured_value"] == pytest.approx(sum(r["overall_score"] for r in judged) / 6)
    assert "1건" in c["note"]


# --- human labels ------------------------------------------------------------------------


def test_label_headers_are_matched_trimmed_and_case_insensitively(con):
    # The fixture's header is "Question_ID ,Hallucination,report_file".
    n = one(con, "select count(question_id) as n from stg_rag__hallucination_labels")["n"]
    assert n == 7


def test_labels_that_cannot_be_read_are_kept_with_a_reason(con):
    bad = all_rows(con, "select * from stg_rag__hallucination_labels where problem is not null")
    assert [(b["question_id"], b["problem"]) for b in bad] == [
        ("in_impl_001", "hallucination is not true/false: maybe")
    ]


def test_hallucination_accuracy_compares_the_judge_with_the_human_label(con):
    # Run 2: ood_hallucination_001 (judge true, label true), in_trouble_001 (false, the
    # run-specific false beats the general true), in_concept_001 (false, false) agree;
    # edge_multi_001 (judge true, label "no") disagrees; in_course_001 errored: not counted.
    c = accuracy(con, RUN_2)
    assert (c["numerator"], c["denominator"]) == (3, 4)
    assert c["measured_value"] == pytest.approx(0.75)
    assert c["met"] is False
    assert "4/11" in c["note"]


def test_labels_without_a_report_file_apply_to_every_run(con):
    # Run 1: only the two general labels apply, and the judge agrees with both.
    c = accuracy(con, RUN_1)
    assert (c["numerator"], c["denominator"]) == (2, 2)
    assert c["met"] is True


def test_accuracy_is_never_computed_from_unlabelled_answers(con):
    labelled = one(
        con,
        "select count(*) as n from rag_judgements"
        " where run_id = ? and human_hallucination is not null",
        [RUN_2],
    )["n"]
    assert labelled == 5  # four judged + the errored one
    assert accuracy(con, RUN_2)["denominator"] == 4


@pytest.mark.parametrize("run_id", [RUN_1, RUN_2])
def test_judge_precision_recall_and_kappa_against_the_labels_are_scikit_learns(con, run_id):
    labelled = all_rows(
        con,
        """
        select hallucination_detected, human_hallucination from rag_judgements
        where run_id = ? and judge_status = 'judged' and human_hallucination is not null
        """,
        [run_id],
    )
    reference = binary_agreement([r["hallucination_detected"] for r in labelled],
                                 [r["human_hallucination"] for r in labelled])
    found = one(con, "select * from rag_hallucination_agreement where run_id = ?", [run_id])
    assert found["labelled_count"] == len(labelled) == accuracy(con, run_id)["denominator"]
    for figure in ("precision", "recall"):
        assert found[f"judge_{figure}"] == pytest.approx(reference[figure])
    assert found["kappa"] == pytest.approx(reference["kappa"])


def test_judge_against_the_labels_on_the_samples(con):
    # run 2: ood_hallucination_001 both yes; edge_multi_001 the judge's yes, the label's no;
    # in_trouble_001 and in_concept_001 both no. Run 1: both labels yes, the judge too - κ is
    # undefined (no chance of disagreeing): null.
    found = {r["run_id"]: r for r in all_rows(con, "select * from rag_hallucination_agreement")}
    run_2 = found[RUN_2]
    assert [run_2[c] for c in ("true_positive", "false_positive", "false_negative",
                               "true_negative")] == [1, 1, 0, 2]
    assert (run_2["judge_precision"], run_2["judge_recall"], run_2["kappa"]) == (0.5, 1.0, 0.5)
    assert (found[RUN_1]["judge_precision"], found[RUN_1]["judge_recall"],
            found[RUN_1]["kappa"]) == (1.0, 1.0, None)


# --- stored values and changes ------------------------------------------------------------


def test_a_stored_verdict_that_disagrees_with_the_rule_is_reported(warehouse, con):
    s = one(con, "select * from rag_run_scores where run_id = ?", [RUN_2])
    assert s["passed_mismatches"] == 1
    row = one(
        con,
        "select * from rag_judgements where run_id = ? and not passed_matches_stored",
        [RUN_2],
    )
    assert (row["question_id"], row["passed"], row["stored_passed"]) == (
        FLIPPED_QUESTION,
        True,
        False,
    )
    # the warning names the test; its stored failure row names the broken expectation
    assert re.search(r"WARN 1 rag_judgements__expectations_hold", warehouse.log)
    assert con.execute(
        "select expectation, rows_breaking "
        "from main_dbt_test__audit.rag_judgements__expectations_hold"
    ).fetchall() == [("passed_matches_stored", 1)]


def test_verdict_changes_between_sample_runs_go_both_ways(con):
    changes = {
        (c["question_id"], c["change_direction"])
        for c in all_rows(con, "select * from rag_verdict_changes where run_id = ?", [RUN_2])
    }
    assert changes == {
        ("in_impl_001", "pass_to_fail"),
        ("in_trouble_001", "fail_to_pass"),
        ("ood_ambiguous_001", "fail_to_pass"),
        ("edge_multi_001", "pass_to_fail"),
        ("edge_code_001", "fail_to_pass"),
    }


# --- the report ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_run_2(con) -> str:
    return render(REPORTER.template, REPORTER.context(con, RUN_2))


def test_report_success_criteria_table_shows_measured_accuracy_with_labels(report_run_2):
    table = tables_by_heading(report_run_2)["성공 기준 (설계서 §7)"]
    assert table[0] == ["지표", "목표", "실측", "달성", "비고"]
    rows = {r[0]: r[1:4] for r in table[1:]}
    assert rows["환각 탐지 정확도"] == ["≥ 85%", "75.0% (3/4)", "미달"]
    assert rows["OOD 적절한 거부율"] == ["≥ 90%", "66.7% (2/3)", "미달"]


def test_report_shows_the_judge_against_the_labels_under_the_criteria(report_run_2):
    section = report_run_2.split("## 성공 기준 (설계서 §7)")[1].split("\n## ")[0]
    assert (
        "- 사람 라벨과 judge의 환각 판정 (라벨이 있는 채점 문항 4개, 환각이 양성): "
        "정밀도 50.0% (1/2), 재현율 100.0% (1/1), Cohen's κ 0.50"
    ) in section.splitlines()


def test_hostile_reasoning_stays_inside_its_cell(report_run_2):
    table = tables_by_heading(report_run_2)["실패 문항 (4)"]
    header, body = table[0], table[1:]
    assert all(len(row) == len(header) for row in body)
    hostile = next(row for row in body if row[0] == HOSTILE_QUESTION)
    assert hostile[header.index("판정 근거")] == (
        "첫 줄 | 파이프 포함 둘째 줄 <script>alert('x')</script> 셋째 줄 `코드` \\ 끝"
    )
    assert html_tokens(report_run_2) == []
    assert "<script>" not in report_run_2


def test_hostile_reasoning_also_survives_the_changes_table(report_run_2):
    table = tables_by_heading(report_run_2)["이전 실행 대비 변화"]
    assert all(len(row) == len(table[0]) for row in table)
    assert len(table) == 1 + 5


def test_report_lists_the_stored_verdict_discrepancy(report_run_2):
    table = tables_by_heading(report_run_2)["보고서에 저장된 판정과의 비교"]
    assert table[1][:3] == [FLIPPED_QUESTION, "통과", "실패"]


def test_report_shows_dataset_coverage_against_the_plan(report_run_2):
    table = tables_by_heading(report_run_2)["데이터셋 커버리지 (설계서 §2)"]
    total = next(row for row in table if row[1] == "total")
    assert total[3:7] == ["80", "12", "-68", "미달"]


def test_score_report_writes_one_report_per_judge_run(warehouse, tmp_path):
    result = CliRunner().invoke(
        main, ["--agent", "rag", "--db", str(warehouse.db), "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.glob("*.md")) == [
        "evaluation_report_sample_20251210_100000_score_summary.md",
        "evaluation_report_sample_20251211_100000_score_summary.md",
    ]
    first = (tmp_path / "evaluation_report_sample_20251210_100000_score_summary.md").read_text(
        encoding="utf-8"
    )
    assert "비교할 이전 실행 없음" in first
