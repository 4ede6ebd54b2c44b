"""Context for the RAG Q&A evaluation report (seed 003): one report per judge run."""

from __future__ import annotations

from agent_scoring.reports import Connection, Reporter, rows

AGENT = "rag"

BREAKDOWN_TITLES = {
    "category": "카테고리",
    "subcategory": "서브카테고리",
    "course": "과정 (metadata.coverage)",
    "difficulty": "난이도",
    "expected_behavior": "기대 행동 (expected_behavior)",
}
JUDGE_STATUS = {
    "judged": "채점",
    "error": "오류",
    "no_judge": "판정 없음",
    "incomplete_judge": "판정 불완전",
    "invalid_judge": "판정 범위 밖",
}
COVERAGE_LEVELS = {
    "total": "전체",
    "category": "카테고리",
    "subcategory": "서브카테고리",
    "course_tier": "과정 Tier",
    "course": "과정",
}
CHANGE_DIRECTIONS = {"fail_to_pass": "실패 → 통과", "pass_to_fail": "통과 → 실패"}


# --- display helpers: every number the template prints is formatted here ---------------


def pct(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value * 100:.{digits}f}%"


def dec(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(numerator: int | None, denominator: int | None) -> str:
    if not denominator:
        return "-"
    return f"{pct(numerator / denominator)} ({numerator}/{denominator})"


def yes_no(value: bool | None, yes: str = "예", no: str = "아니오") -> str:
    return "-" if value is None else (yes if value else no)


def met_label(value: bool | None) -> str:
    return "측정 불가" if value is None else ("달성" if value else "미달")


def criterion_row(c: dict) -> dict:
    """One line of the success-criteria table: 지표 / 목표 / 실측 / 달성 / 비고."""
    if c["metric"] == "mean_overall_score":
        target = f"≥ {dec(c['target'])}"
        measured = dec(c["measured_value"], 4)
    else:
        target = f"≥ {pct(c['target'], 0)}"
        measured = (
            "-"
            if c["measured_value"] is None
            else f"{pct(c['measured_value'])} ({c['numerator']}/{c['denominator']})"
        )
    return {
        "label": c["label_ko"],
        "target": target,
        "measured": measured,
        "met": met_label(c["met"]),
        "note": c["note"] or "",
    }


def scores_text(r: dict) -> str:
    parts = [r["faithfulness"], r["relevance"], r["completeness"]]
    return "/".join("-" if p is None else str(p) for p in parts)


# --- queries -----------------------------------------------------------------------------


def sources(con: Connection) -> list[str]:
    return [
        r["report_file"]
        for r in rows(
            con, "select report_file from rag_run_scores order by run_at nulls first, report_file"
        )
    ]


def run_scores(con: Connection, source_file: str) -> dict:
    found = rows(con, "select * from rag_run_scores where report_file = ?", [source_file])
    if not found:
        raise LookupError(f"{source_file}: no RAG judge run of that name in rag_run_scores")
    return found[0]


def criteria(con: Connection, run_id: str) -> list[dict]:
    found = rows(
        con,
        "select * from rag_success_criteria where run_id = ? order by sort_order, criterion_id",
        [run_id],
    )
    return [criterion_row(c) for c in found]


def share(value: float | None, numerator: int, denominator: int) -> str:
    """A share with its counts, as the criteria table shows them: 50.0% (1/2), or '-'."""
    return "-" if value is None else f"{pct(value)} ({numerator}/{denominator})"


def label_agreement(con: Connection, run_id: str) -> dict | None:
    """The judge's hallucination verdict against the human labels; None without labels."""
    found = rows(
        con, "select * from rag_hallucination_agreement where run_id = ?", [run_id]
    )
    if not found or not found[0]["labelled_count"]:
        return None
    a = found[0]
    return {
        "labelled": a["labelled_count"],
        "precision": share(a["judge_precision"], a["true_positive"], a["judge_positive_count"]),
        "recall": share(a["judge_recall"], a["true_positive"], a["human_positive_count"]),
        "kappa": dec(a["kappa"]),
    }


def breakdowns(con: Connection, run_id: str) -> list[dict]:
    found = rows(
        con,
        """
        select * from rag_breakdown
        where run_id = ?
        order by dimension_order, value_rank
        """,
        [run_id],
    )
    groups: dict[str, dict] = {}
    for r in found:
        group = groups.setdefault(
            r["dimension"],
            {
                "dimension": r["dimension"],
                "title": BREAKDOWN_TITLES.get(r["dimension"], r["dimension"]),
                "rows": [],
            },
        )
        group["rows"].append(
            {
                "value": r["dimension_value"],
                "questions": r["questions"],
                "passed": r["passed_questions"],
                "pass_rate": pct(r["pass_rate"]),
                "overall": dec(r["mean_overall_score"], 3),
                "faithfulness": dec(r["mean_faithfulness"]),
                "relevance": dec(r["mean_relevance"]),
                "completeness": dec(r["mean_completeness"]),
                "hallucinations": r["hallucinations"],
            }
        )
    return list(groups.values())


def failed_questions(con: Connection, run_id: str) -> list[dict]:
    found = rows(
        con,
        """
        select * from rag_judgements
        where run_id = ? and not passed
        order by category_order nulls last, result_ordinal
        """,
        [run_id],
    )
    return [
        {
            "question_id": r["question_id"],
            "group": f"{r['category']}/{r['subcategory']}",
            "question": r["question_text"],
            "status": JUDGE_STATUS.get(r["judge_status"], r["judge_status"]),
            "scores": scores_text(r),
            "hallucination": yes_no(r["hallucination_detected"]),
            "behavior": yes_no(r["behavior_correct"]),
            "overall": dec(r["overall_score"], 3),
            "reasoning": r["reasoning"] or r["error"] or "",
        }
        for r in found
    ]


def stored_mismatches(con: Connection, run_id: str) -> list[dict]:
    found = rows(
        con,
        """
        select question_id, passed, stored_passed, overall_score, stored_overall_score
        from rag_judgements
        where run_id = ? and not (passed_matches_stored and overall_score_matches_stored)
        order by result_ordinal
        """,
        [run_id],
    )
    return [
        {
            "question_id": r["question_id"],
            "passed": yes_no(r["passed"], "통과", "실패"),
            "stored_passed": yes_no(r["stored_passed"], "통과", "실패"),
            "overall": dec(r["overall_score"], 3),
            "stored_overall": dec(r["stored_overall_score"], 3),
        }
        for r in found
    ]


def coverage(con: Connection, dataset_file: str | None) -> list[dict]:
    if dataset_file is None:
        return []
    found = rows(
        con,
        """
        select * from rag_dataset_coverage
        where dataset_file = ?
        order by
            case coverage_level
                when 'total' then 1 when 'category' then 2 when 'subcategory' then 3
                when 'course_tier' then 4 else 5
            end,
            sort_order, coverage_item
        """,
        [dataset_file],
    )
    return [
        {
            "level": COVERAGE_LEVELS.get(r["coverage_level"], r["coverage_level"]),
            "item": r["coverage_item"],
            "label": r["label_ko"] or "",
            "target": "-" if r["target_questions"] is None else r["target_questions"],
            "actual": r["actual_questions"],
            "gap": "-" if r["gap"] is None else f"{r['gap']:+d}",
            "met": "-" if r["target_met"] is None else ("달성" if r["target_met"] else "미달"),
        }
        for r in found
    ]


def verdict_changes(con: Connection, run_id: str) -> list[dict]:
    found = rows(
        con,
        """
        select * from rag_verdict_changes
        where run_id = ?
        order by change_direction, question_id
        """,
        [run_id],
    )
    return [
        {
            "question_id": r["question_id"],
            "group": f"{r['category']}/{r['subcategory']}",
            "direction": r["change_direction"],
            "change": CHANGE_DIRECTIONS[r["change_direction"]],
            "previous_overall": dec(r["previous_overall_score"], 3),
            "overall": dec(r["overall_score"], 3),
            "reasoning": r["reasoning"] or "",
        }
        for r in found
    ]


def scoring_rules(con: Connection) -> dict:
    rule = rows(con, "select * from rag_scoring_rules")[0]
    return {
        "min_overall": dec(rule["in_domain_pass_min_overall_score"], 2),
        "penalty": dec(rule["hallucination_penalty"], 2),
    }


def context(con: Connection, source_file: str) -> dict:
    run = run_scores(con, source_file)
    run_id = run["run_id"]
    changes = verdict_changes(con, run_id)
    return {
        "source_file": source_file,
        "run": {
            "report_file": run["report_file"],
            "dataset_file": run["dataset_file"] or "(찾지 못함)",
            "dataset_version": run["dataset_version"] or "-",
            "run_at": "-" if run["run_at"] is None else f"{run['run_at']:%Y-%m-%d %H:%M:%S}",
            "previous_run_id": run["previous_run_id"],
            "judge_model": run["judge_model"],
            "is_demo_judge": run["is_demo_judge"],
            "questions": run["questions"],
            "judged": run["judged_questions"],
            "errors": run["error_questions"],
            "judge_errors": run["judge_error_questions"],
            "is_complete": run["is_complete"],
            "stopped_reason": run["stopped_reason"],
            "not_in_dataset": run["questions_not_in_dataset"],
            "not_run": run["dataset_questions_not_run"],
            "passed": run["passed_questions"],
            "pass_rate": ratio(run["passed_questions"], run["questions"]),
            "criteria_met": run["criteria_met"],
            "criteria_measured": run["criteria_measured"],
            "criteria_total": run["criteria_total"],
        },
        "rules": scoring_rules(con),
        "criteria": criteria(con, run_id),
        "labels": label_agreement(con, run_id),
        "means": [
            {"label": "충실성 (faithfulness, 1–5)", "value": dec(run["mean_faithfulness"])},
            {"label": "관련성 (relevance, 1–5)", "value": dec(run["mean_relevance"])},
            {"label": "완전성 (completeness, 1–5)", "value": dec(run["mean_completeness"])},
            {"label": "종합 점수 (overall_score, 0–1)", "value": dec(run["mean_overall_score"], 4)},
            {
                "label": "환각 탐지 비율",
                "value": ratio(run["hallucinations"], run["judged_questions"]),
            },
            {"label": "통과율", "value": ratio(run["passed_questions"], run["questions"])},
        ],
        "breakdowns": breakdowns(con, run_id),
        "failed": failed_questions(con, run_id),
        "mismatches": stored_mismatches(con, run_id),
        "stored": {
            "passed": "-"
            if run["stored_passed_questions"] is None
            else run["stored_passed_questions"],
            "overall": dec(run["stored_overall_score"], 4),
        },
        "coverage": coverage(con, run["dataset_file"]),
        "changes": changes,
        "improved": sum(c["direction"] == "fail_to_pass" for c in changes),
        "regressed": sum(c["direction"] == "pass_to_fail" for c in changes),
    }


def summary(ctx: dict) -> str:
    run = ctx["run"]
    unmeasured = run["criteria_total"] - run["criteria_measured"]
    changes = (
        f"{len(ctx['changes'])} verdict changes vs previous run"
        if run["previous_run_id"]
        else "first run of its dataset"
    )
    return (
        f"success criteria met {run['criteria_met']}/{run['criteria_measured']}"
        f"{f' ({unmeasured} not measurable)' if unmeasured else ''}, "
        f"passed {run['pass_rate']}, {changes}"
    )


REPORTER = Reporter(
    agent=AGENT,
    template="rag_report.md.j2",
    required_tables=(
        "rag_run_scores",
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
