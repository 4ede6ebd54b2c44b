"""Context for the plan agent (실행 에이전트) report, seed 001 §4."""

from __future__ import annotations

from agent_scoring.reports import Connection, Reporter, common, rows
from agent_scoring.reports.data_quality import data_quality

AGENT = "plan_agent"


def most_failed_checks(con: Connection, source_file: str, limit: int = 10) -> list[dict]:
    return rows(
        con,
        """
        select check_kind, expected_value,
               count_if(not passed) as failed, count(passed) as evaluated
        from check_results
        where agent = ? and source_file = ? and item_status not in ('error', 'empty')
        group by check_kind, expected_value
        having count_if(not passed) > 0
        order by failed desc, check_kind, expected_value
        limit ?
        """,
        [AGENT, source_file, limit],
    )


def failed_checks_by_kind(con: Connection, source_file: str) -> list[dict]:
    return rows(
        con,
        """
        select check_kind, count_if(not passed) as failed, count(passed) as evaluated,
               count_if(not passed) / nullif(count(passed), 0) as fail_rate,
               count_if(value_elsewhere_in_item) as value_elsewhere
        from check_results
        where agent = ? and source_file = ? and item_status not in ('error', 'empty')
        group by check_kind
        order by failed desc, check_kind
        """,
        [AGENT, source_file],
    )


def consistency(con: Connection, source_file: str, track: str = "all") -> dict:
    found = rows(
        con,
        """
        select eligible_queries, all_pass, all_fail, mismatch, not_eligible, consistency_score
        from consistency where agent = ? and source_file = ? and track = ?
        """,
        [AGENT, source_file, track],
    )
    return found[0] if found else {
        "eligible_queries": 0, "all_pass": 0, "all_fail": 0, "mismatch": 0,
        "not_eligible": 0, "consistency_score": None,
    }


def context(con: Connection, source_file: str) -> dict:
    figures = common.rounds(con, AGENT, source_file)
    query_count = rows(
        con,
        "select count(distinct query_id) as n from item_scores where agent = ? and source_file = ?",
        [AGENT, source_file],
    )[0]["n"]
    return {
        "source_file": source_file,
        "rounds": figures[:-1],
        "set": figures[-1],
        "figures": figures,
        "round_labels": [r["label"] for r in figures[:-1]],
        "query_count": query_count,
        "statuses": common.statuses(con, AGENT, source_file),
        "score_sources": common.score_sources(con, AGENT, source_file),
        "consistency": consistency(con, source_file),
        "score_distribution": common.distribution(con, AGENT, source_file, "intent_score"),
        "speed_distribution": common.distribution(con, AGENT, source_file, "speed_points"),
        "failure_patterns": common.failure_patterns(con, AGENT, source_file),
        "mismatched_queries": common.mismatched_queries(con, AGENT, source_file),
        "most_failed_checks": most_failed_checks(con, source_file),
        "failed_checks_by_kind": failed_checks_by_kind(con, source_file),
        "speed_rubric": common.speed_rubric_text(con, "single"),
        "data_quality": data_quality(con, AGENT, source_file),
    }


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
)
