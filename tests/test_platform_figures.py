"""The team's platform's own headline figures (issue 22): the total per item, and the
report's "플랫폼 지표" section read from platform_summary and category_failures."""

from __future__ import annotations

import pytest
from agent_scoring.reports import render_report
from support.markdown import table_with_header
from support.warehouse import all_rows


def test_total_is_the_mean_of_intent_accuracy_stability_and_given_consistency(con):
    items = all_rows(con, "select intent_score, accuracy_score, stability_score, speed_points, "
                          "llm_consistency_score, total_score from item_scores")
    assert len(items) > 100
    for item in items:
        parts = [item["intent_score"], item["accuracy_score"], item["stability_score"]]
        if item["llm_consistency_score"] is not None:
            parts.append(item["llm_consistency_score"])
        if item["intent_score"] is None or item["accuracy_score"] is None:
            assert item["total_score"] is None
        else:  # latency is left out
            assert item["total_score"] == pytest.approx(sum(parts) / len(parts))


def test_the_report_gives_the_platforms_figures_from_the_marts(con):
    summary = all_rows(con, "select * from platform_summary where source_file = ?",
                       ["resume_agent_sample.csv"])[0]
    text = render_report(con, "resume_agent", "resume_agent_sample.csv")
    section = text[text.index("## 플랫폼 지표"):text.index("### 카테고리별 실패 패턴")]
    assert (f"{summary['total_score']:.2f} (95% CI {summary['total_score_ci_low']:.2f}–"
            f"{summary['total_score_ci_high']:.2f}) ({summary['total_scored_count']}개 문항)"
            in section)
    assert f"실패(3.0 미만): {summary['fail_count']}건 ({summary['fail_rate']:.1%})" in section
    assert (f"응답 시간(MULTI): p50 {summary['p50_multi_sec']:.3f}초, "
            f"p90 {summary['p90_multi_sec']:.3f}초") in section
    categories = all_rows(con, "select category, fail_count, top_failure_pattern "
                               "from category_failures where source_file = ?",
                          ["resume_agent_sample.csv"])
    table = table_with_header(text, "카테고리", "가장 많은 실패 패턴")
    assert sorted((row[0], int(row[4]), row[6]) for row in table[1:]) == sorted(
        (c["category"], c["fail_count"], c["top_failure_pattern"] or "-") for c in categories)


def test_each_run_names_the_models_and_prompts_that_graded_it(con):
    found = {r["source_file"]: (r["llm_models"], r["prompt_versions"]) for r in all_rows(
        con, "select source_file, llm_models, prompt_versions from runs")}
    assert found["plan_agent_sample.csv"] == ("gpt-4o-mini", None)
    assert found["resume_agent_sample.csv"] == (None, None)


def test_the_report_checks_every_checklist_line_from_the_mart(con):
    lines = all_rows(con, "select line_no, check_text, figure, passed, hint from ops_checklist "
                          "where source_file = ? order by line_no",
                     ["resume_agent_published.csv"])
    assert [line["line_no"] for line in lines] == list(range(1, 10))  # tracks: all nine
    text = render_report(con, "resume_agent", "resume_agent_published.csv")
    table = table_with_header(text, "판정", "확인 결과")
    assert [(row[0], row[1], row[2]) for row in table[1:]] == [
        ("✓" if line["passed"] else "⚠", line["check_text"], line["figure"]) for line in lines]
    assert all((row[3] == "-") == (row[0] == "✓") for row in table[1:])  # ⚠ says what to check
    # the published fixture's tracks are those of the team's report: 110 / 8 / 46
    assert lines[5]["figure"].startswith("Track 1 110건, Track 2 8건, Track 3 46건")
