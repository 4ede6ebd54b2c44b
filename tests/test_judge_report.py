"""The written report: the warehouse's scoring rule and the real reports' schema."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from agent_scoring.judge.inputs import Answer, load_answers, load_dataset
from agent_scoring.judge.keyword import KeywordJudge
from agent_scoring.judge.prompts import PROMPT_VERSION, PromptLimits
from agent_scoring.judge.providers import Outcome
from agent_scoring.judge.report import (
    RulesError,
    ScoringRules,
    build_report,
    overall_score,
    passed,
    report_tag,
    scoring_rules,
    write_report,
)
from agent_scoring.judge.runner import RunStats, run
from agent_scoring.judge.verdict import Verdict

REPO = Path(__file__).resolve().parents[1]
REAL = Path(__file__).resolve().parents[2] / "shared" / "real-data"
REAL_REPORTS = sorted(REAL.glob("evaluation_report_v2_*.json"))
FIXTURES = Path(__file__).parent / "fixtures" / "judge"

needs_real = pytest.mark.skipif(not REAL_REPORTS, reason="real evaluation reports not present")
# the rule the warehouse scores with: the seed, read as the judge reads it
RULES = scoring_rules(REPO)


def verdict(f: int, r: int, c: int, h: bool = False, b: bool = True) -> Verdict:
    return Verdict(f, r, c, h, b, "근거")


def mini_report() -> dict:
    dataset = load_dataset(FIXTURES / "qa_dataset_mini.json")
    judged, stats = run(
        dataset,
        load_answers(FIXTURES / "answers_mini.jsonl"),
        KeywordJudge(),
        answers_name="answers_mini.jsonl",
        limits=PromptLimits(),
    )
    return build_report(
        dataset_version=dataset.version,
        started=datetime(2025, 12, 11, 18, 49, 30),
        judged=judged,
        stats=stats,
        provider="keyword",
        model="offline-keyword",
        demo=True,
        prompt_version=PROMPT_VERSION,
        dataset_file="qa_dataset_mini.json",
        answers_file="answers_mini.jsonl",
        rules=RULES,
    )


def test_the_rule_is_the_seed_the_warehouse_scores_with():
    assert (RULES.in_domain_pass_min_overall_score, RULES.hallucination_penalty) == (0.6, 0.2)


def test_a_project_without_the_seed_fails_in_one_line(tmp_path):
    with pytest.raises(RulesError, match="rag_scoring_rules.csv: cannot read the scoring rule"):
        scoring_rules(tmp_path)
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "rag_scoring_rules.csv").write_text("hallucination_penalty\n0.2\n")
    with pytest.raises(RulesError, match="expected one row with"):
        scoring_rules(tmp_path)


def test_overall_score_is_the_mean_of_the_three_scores_out_of_5():
    assert overall_score(verdict(4, 5, 5), RULES) == 0.933


def test_hallucination_takes_0_2_off_and_never_below_zero():
    assert overall_score(verdict(5, 5, 5, h=True), RULES) == 0.8
    assert overall_score(verdict(1, 1, 1, h=True), RULES) == 0.0


def test_in_domain_passes_at_exactly_0_6_without_hallucination():
    assert passed("in_domain", verdict(3, 3, 3), RULES) is True
    assert passed("in_domain", verdict(3, 3, 2), RULES) is False
    assert passed("in_domain", verdict(5, 5, 5, h=True), RULES) is False


def test_another_pass_mark_in_the_seed_moves_the_verdict():
    strict = ScoringRules(in_domain_pass_min_overall_score=0.7, hallucination_penalty=0.2)
    assert passed("in_domain", verdict(3, 3, 3), strict) is False


def test_out_of_domain_and_edge_cases_pass_on_behavior_correct_alone():
    assert passed("out_of_domain", verdict(1, 1, 1, b=True), RULES) is True
    assert passed("edge_case", verdict(5, 5, 5, b=False), RULES) is False


@needs_real
@pytest.mark.parametrize("path", REAL_REPORTS, ids=lambda p: p.name)
def test_the_rule_reproduces_every_stored_score_and_pass_of_the_real_reports(path):
    report = json.loads(path.read_text(encoding="utf-8"))
    for result in report["results"]:
        j = result["judge"]
        v = verdict(
            j["faithfulness"],
            j["relevance"],
            j["completeness"],
            j["hallucination_detected"],
            j["behavior_correct"],
        )
        assert overall_score(v, RULES) == j["overall_score"], result["question_id"]
        assert passed(result["category"], v, RULES) == result["passed"], result["question_id"]


@needs_real
def test_the_report_has_the_real_reports_top_level_and_result_keys():
    real = json.loads(REAL_REPORTS[-1].read_text(encoding="utf-8"))
    ours = mini_report()
    assert list(ours)[: len(real)] == list(real)
    assert list(ours["results"][0]) == list(real["results"][0])
    assert list(ours["results"][0]["judge"]) == list(real["results"][0]["judge"])
    assert set(ours["by_category"]["in_domain"]) == set(real["by_category"]["in_domain"])
    assert set(next(iter(ours["by_subcategory"].values()))) == set(
        next(iter(real["by_subcategory"].values()))
    )


@needs_real
def test_each_value_has_the_same_json_type_as_in_the_real_report():
    real = json.loads(REAL_REPORTS[-1].read_text(encoding="utf-8"))
    ours = mini_report()
    row = next(r for r in ours["results"] if r["judge"])
    for key, value in real["results"][0].items():
        if key != "error":  # null in every real row; a string when set
            assert type(row[key]) is type(value), key
    for key in ("dataset_version", "timestamp", "total_questions", "pass_rate"):
        assert type(ours[key]) is type(real[key]), key


def test_a_judge_or_chatbot_error_fails_and_is_kept_out_of_the_mean():
    report = mini_report()
    error_row = next(r for r in report["results"] if r["question_id"] == "t_multihop_001")
    assert error_row == {**error_row, "passed": False, "judge": None, "error": "timeout(120000ms)"}
    assert report["error_questions"] == ["t_multihop_001"]
    assert "t_multihop_001" in report["failed_questions"]
    scores = [r["judge"]["overall_score"] for r in report["results"] if r["judge"]]
    assert report["overall_score"] == pytest.approx(sum(scores) / len(scores))
    assert report["total_questions"] == 5
    assert report["pass_rate"] == report["passed_questions"] / 5


def test_category_summary_carries_the_mean_score_the_real_reports_left_at_zero():
    report = mini_report()
    in_domain = [r for r in report["results"] if r["category"] == "in_domain"]
    expected = sum(r["judge"]["overall_score"] for r in in_domain) / len(in_domain)
    assert report["by_category"]["in_domain"]["avg_score"] == pytest.approx(expected)
    assert report["by_subcategory"]["edge_case/multi_hop"] == {"total": 1, "passed": 0}


def test_a_question_without_an_answer_is_an_error_not_a_gap():
    dataset = load_dataset(FIXTURES / "qa_dataset_mini.json")
    answers = {"t_concept_001": Answer("t_concept_001", "평균과 분산으로 정규화합니다.")}
    judged, stats = run(
        dataset, answers, KeywordJudge(), answers_name="a.jsonl", limits=PromptLimits()
    )
    assert stats.missing_answers == 4
    missing = next(j for j in judged if j.question["id"] == "t_impl_001")
    assert missing.outcome.error == "no answer for this question in a.jsonl"


def test_the_report_is_named_after_the_dataset_file_like_the_real_ones():
    assert report_tag("2.0.0", Path("qa_dataset_v2.json")) == "v2"
    assert report_tag("2.0.0", Path("qa_dataset_sample.json")) == "sample"
    assert report_tag("2.0.0", Path("qa_dataset.json")) == "v2"
    assert report_tag(None, Path("qa_dataset.json")) == "qa_dataset"
    assert report_tag("beta", Path("my set.json")) == "my-set"


def test_the_report_is_written_whole_and_never_overwrites_an_earlier_one(tmp_path):
    finished = datetime(2025, 12, 11, 20, 8, 12)
    report = {"results": []}
    first = write_report(report, tmp_path, "v2", finished)
    second = write_report(report, tmp_path, "v2", finished)
    assert first.name == "evaluation_report_v2_20251211_200812.json"
    assert second.name == "evaluation_report_v2_20251211_200812_2.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.name, second.name]


def test_stats_count_cached_judged_and_failed_outcomes_apart():
    stats = RunStats()
    for outcome in (
        Outcome(verdict=verdict(3, 3, 3), cached=True),
        Outcome(verdict=verdict(3, 3, 3), requests=2, http_retries=1),
        Outcome(error="judge: x", requests=3, invalid_replies=2),
    ):
        stats.count(outcome)
    assert (stats.cached, stats.judged, stats.judge_errors) == (1, 1, 1)
    assert (stats.requests, stats.http_retries, stats.invalid_replies) == (5, 1, 2)
    assert stats.to_dict()["usage"] is None  # no API reported usage: not invented as zero


def test_result_rows_keep_dataset_order():
    report = mini_report()
    assert [r["question_id"] for r in report["results"]] == [
        "t_concept_001",
        "t_impl_001",
        "t_unrelated_001",
        "t_halluc_001",
        "t_multihop_001",
    ]
