"""The RAG Q&A evaluation report (seed 003): one report per judge run.

Every figure is a column of the rag_* marts (models/marts/rag) or of report_rag__runs; this
module chooses the run and selects its rows, and templates/rag_report.md.j2 lays them out
(the display labels and number formats are there).
"""

from __future__ import annotations

from agent_scoring.markdown import share
from agent_scoring.reports import Connection, Reporter, rows

AGENT = "rag"
# context key -> (model, columns, the run's key column, condition, order): each a plain
# select of one run's rows (the coverage rows by the run's dataset file)
SECTIONS = {
    "criteria": (
        "rag_success_criteria", "label_ko, metric, target, measured_value, numerator, "
        "denominator, met, note", "run_id", "", "sort_order, criterion_id"),
    # the judge against the human labels: no row for a run without labels
    "labels": (
        "rag_hallucination_agreement", "labelled_count, true_positive, judge_positive_count, "
        "human_positive_count, judge_precision, judge_recall, kappa", "run_id",
        "labelled_count > 0", "run_id"),
    "breakdowns": (
        "rag_breakdown", "dimension, dimension_order, dimension_value, questions, "
        "passed_questions, pass_rate, mean_overall_score, mean_faithfulness, mean_relevance, "
        "mean_completeness, hallucinations", "run_id", "", "dimension_order, value_rank"),
    "failed": (
        "rag_judgements", "question_id, category, subcategory, question_text, judge_status, "
        "faithfulness, relevance, completeness, hallucination_detected, behavior_correct, "
        "overall_score, reasoning, error", "run_id", "not passed",
        "category_order nulls last, result_ordinal"),
    # recomputed verdicts or scores that differ from the ones the report stored
    "mismatches": (
        "rag_judgements", "question_id, passed, stored_passed, overall_score, "
        "stored_overall_score", "run_id",
        "not (passed_matches_stored and overall_score_matches_stored)", "result_ordinal"),
    "coverage": (
        "rag_dataset_coverage", "coverage_level, coverage_item, label_ko, target_questions, "
        "actual_questions, gap, target_met", "dataset_file", "",
        "level_order, sort_order, coverage_item"),
    "changes": (
        "rag_verdict_changes", "question_id, category, subcategory, change_direction, "
        "previous_overall_score, overall_score, reasoning", "run_id", "",
        "change_direction, question_id"),
}


def sources(con: Connection) -> list[str]:
    return [r["report_file"] for r in rows(
        con, "select report_file from rag_run_scores order by run_at nulls first, report_file")]


def section(con: Connection, name: str, run: dict) -> list[dict]:
    model, selected, key, condition, order = SECTIONS[name]
    if run[key] is None:  # a run whose dataset file is not there: no coverage
        return []
    where = f"{key} = ?" + (f" and {condition}" if condition else "")
    return rows(con, f"select {selected} from {model} where {where} order by {order}",
                [run[key]])


def context(con: Connection, source_file: str) -> dict:
    scores = rows(con, "select * from rag_run_scores where report_file = ?", [source_file])
    if not scores:
        raise LookupError(f"{source_file}: no RAG judge run of that name in rag_run_scores")
    run = scores[0] | rows(con, "select * from report_rag__runs where run_id = ?",
                           [scores[0]["run_id"]])[0]
    sections = {name: section(con, name, run) for name in SECTIONS}
    return {
        "source_file": source_file,
        "run": run,
        "rules": rows(con, "select in_domain_pass_min_overall_score, hallucination_penalty "
                      "from rag_scoring_rules")[0],
        **sections,
        "labels": sections["labels"][0] if sections["labels"] else None,
    }


def summary(ctx: dict) -> str:
    run = ctx["run"]
    unmeasured = run["criteria_unmeasured"]
    changes = (
        f"{run['verdict_changes']} verdict changes vs previous run"
        if run["previous_run_id"]
        else "first run of its dataset"
    )
    return (
        f"success criteria met {run['criteria_met']}/{run['criteria_measured']}"
        f"{f' ({unmeasured} not measurable)' if unmeasured else ''}, "
        f"passed {share(run['pass_rate'], run['passed_questions'], run['questions'])}, "
        f"{changes}"
    )


REPORTER = Reporter(
    agent=AGENT,
    template="rag_report.md.j2",
    required_tables=(
        "rag_run_scores",
        "report_rag__runs",
        "rag_success_criteria",
        "rag_hallucination_agreement",
        "rag_judgements",
        "rag_breakdown",
        "rag_dataset_coverage",
        "rag_verdict_changes",
        "rag_scoring_rules",
    ),
    sources=sources,
    context=context,
    summary=summary,
)
