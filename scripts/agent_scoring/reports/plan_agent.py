"""Context for the plan agent (실행 에이전트) report, seed 001 §4."""

from __future__ import annotations

from agent_scoring.reports import IN_FILES, ByFile, Connection, Reporter, common, rows_by_file
from agent_scoring.reports.data_quality import data_quality_by_file

AGENT = "plan_agent"
NO_CONSISTENCY = {
    "eligible_queries": 0, "all_pass": 0, "all_fail": 0, "mismatch": 0,
    "not_eligible": 0, "consistency_score": None,
}


def most_failed_checks(con: Connection, source_files: list[str], limit: int = 10) -> ByFile:
    """Per file: the `limit` (check, expected value) pairs that failed most."""
    return rows_by_file(
        con,
        f"""
        select source_file, check_kind, expected_value,
               count_if(not passed) as failed, count(passed) as evaluated
        from check_results
        where agent = ? and source_file {IN_FILES} and item_status not in ('error', 'empty')
        group by source_file, check_kind, expected_value
        having count_if(not passed) > 0
        qualify row_number() over (
            partition by source_file order by failed desc, check_kind, expected_value) <= ?
        order by failed desc, check_kind, expected_value
        """,
        [AGENT, source_files, limit],
    )


def failed_checks_by_kind(con: Connection, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, check_kind, count_if(not passed) as failed,
               count(passed) as evaluated,
               count_if(not passed) / nullif(count(passed), 0) as fail_rate,
               count_if(value_elsewhere_in_item) as value_elsewhere
        from check_results
        where agent = ? and source_file {IN_FILES} and item_status not in ('error', 'empty')
        group by source_file, check_kind
        order by failed desc, check_kind
        """,
        [AGENT, source_files],
    )


def consistency(con: Connection, source_files: list[str], track: str = "all") -> dict[str, dict]:
    found = rows_by_file(
        con,
        f"""
        select source_file, eligible_queries, all_pass, all_fail, mismatch, not_eligible,
               consistency_score
        from consistency where agent = ? and source_file {IN_FILES} and track = ?
        """,
        [AGENT, source_files, track],
    )
    return common.first_by_file(found, source_files, NO_CONSISTENCY)


def query_counts(con: Connection, source_files: list[str]) -> dict[str, int]:
    found = rows_by_file(
        con,
        f"""
        select source_file, count(distinct query_id) as n from item_scores
        where agent = ? and source_file {IN_FILES} group by source_file
        """,
        [AGENT, source_files],
    )
    return {f: found[f][0]["n"] if found[f] else 0 for f in source_files}


def contexts(con: Connection, source_files: list[str]) -> list[dict]:
    """Each file's context; every query runs once for all of them."""
    figures = common.rounds(con, AGENT, source_files)
    scores = common.bucket_counts(con, AGENT, source_files, "intent_score")
    speeds = common.bucket_counts(con, AGENT, source_files, "speed_points")
    speed_rubric = common.speed_rubric_text(con, "single")
    per_file = {
        "query_count": query_counts(con, source_files),
        "statuses": common.statuses(con, AGENT, source_files),
        "score_sources": common.score_sources(con, AGENT, source_files),
        "consistency": consistency(con, source_files),
        "failure_patterns": common.failure_patterns(con, AGENT, source_files),
        "mismatched_queries": common.mismatched_queries(con, AGENT, source_files),
        "most_failed_checks": most_failed_checks(con, source_files),
        "failed_checks_by_kind": failed_checks_by_kind(con, source_files),
        "data_quality": data_quality_by_file(con, AGENT, source_files),
    }
    return [
        {
            "source_file": f,
            **_figures(figures[f]),
            "score_distribution": common.distribution(scores[f]),
            "speed_distribution": common.distribution(speeds[f]),
            "speed_rubric": speed_rubric,
            **{name: values[f] for name, values in per_file.items()},
        }
        for f in source_files
    ]


def _figures(figures: list[dict]) -> dict:
    """The rounds then the set, as `common.rounds` gives them, under the template's names."""
    return {
        "rounds": figures[:-1],
        "set": figures[-1],
        "figures": figures,
        "round_labels": [r["label"] for r in figures[:-1]],
    }


def context(con: Connection, source_file: str) -> dict:
    return contexts(con, [source_file])[0]


def summary(ctx: dict) -> str:
    s = ctx["set"]
    return (
        f"{s['item_count']} items, intent {common.fmt(s['intent_score'])}, "
        f"consistency {common.fmt(ctx['consistency']['consistency_score'])}, "
        f"speed {common.fmt(s['mean_response_time_sec'], 3)}s, "
        f"stability {common.fmt(s['stability_score'])}"
    )


REPORTER = Reporter(
    agent=AGENT,
    template="plan_agent_report.md.j2",
    required_tables=("item_scores", "round_scores", "set_scores", "consistency",
                     "query_consistency", "check_results", "speed_bands"),
    sources=lambda con: common.sources(con, AGENT),
    context=context,
    summary=summary,
    batch_context=contexts,
)
