"""The report's "LLM 채점 검증": how far the platform's LLM scores agree with the rules
(mart score_agreement, with Cohen's κ), and each item where they are two points apart or
more, with what the rules saw (score_pairs_far_apart). Every figure and text is the marts'."""

from __future__ import annotations

from agent_scoring.reports import IN_FILES, ByFile, Connection, rows_by_file, tables

METRIC_LABELS = {
    "intent": "의도 충족", "accuracy": "정확성", "consistency": "일관성",
    "speed": "응답 속도", "stability": "안정성",
}
SHOWN = 30


def agreement(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, metric, item_count, exact_agree, within_one, kappa, kappa_weights,
               mean_abs_diff, llm_higher, llm_lower, far_apart, rule_unscored
        from score_agreement
        where agent = ? and source_file {IN_FILES}
        order by metric_order
        """,
        [agent, source_files],
    )


def far_apart(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    """Per file: the first SHOWN pairs two points apart or more, with what the rules saw."""
    return rows_by_file(
        con,
        f"""
        select source_file, metric, query_id, round_label, llm_score, rule_score,
               far_apart_count, is_llm_error, rule_basis
        from score_pairs_far_apart
        where agent = ? and source_file {IN_FILES} and far_apart_rank <= ?
        order by source_file, far_apart_rank
        """,
        [agent, source_files, SHOWN],
    )


def audits(con: Connection, agent: str, source_files: list[str]) -> dict[str, dict]:
    """Per file: the agreement per metric and the pairs far apart, ready to print."""
    if "score_agreement" not in tables(con):
        return {f: {"agreement": [], "far_apart": [], "hidden": 0, "kappa_quadratic": [],
                    "kappa_unweighted": []} for f in source_files}
    figures, pairs = agreement(con, agent, source_files), far_apart(con, agent, source_files)
    result = {}
    for f in source_files:
        shown = [p | {"label": METRIC_LABELS[p["metric"]]} for p in pairs[f]]
        total = shown[0]["far_apart_count"] if shown else 0
        rows = [r | {"label": METRIC_LABELS[r["metric"]]} for r in figures[f]]
        result[f] = {
            "agreement": rows,
            # which metrics' κ weighs a near miss (0-5 points) and which are pass/fail
            "kappa_quadratic": [r["label"] for r in rows if r["kappa_weights"] == "quadratic"],
            "kappa_unweighted": [r["label"] for r in rows if r["kappa_weights"] == "none"],
            "far_apart": shown,
            "hidden": total - len(shown),
        }
    return result
