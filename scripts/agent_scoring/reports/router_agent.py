"""What the router agent's (라우터 에이전트) report adds to the generic one: routing accuracy per
expected agent, the confusion matrix, latency and tokens, the export's verdicts that
disagree, and the run settings beside the previous run's. Plain selects of its marts
(router_agent__accuracy, __confusion, __routes, __run_settings)."""

from __future__ import annotations

from agent_scoring.reports import IN_FILES, ByFile, Connection, rows_by_file

AGENT = "router_agent"
REQUIRED_TABLES = ("router_agent__accuracy", "router_agent__confusion", "router_agent__routes",
                   "router_agent__run_settings")


def accuracy(con: Connection, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, expected_agent, query_count, routed_right_count, accuracy,
               verdict_disagreements, error_count, latency_mean_sec, latency_p50_sec,
               latency_p90_sec, input_tokens_mean, output_tokens_mean, total_tokens_mean
        from router_agent__accuracy
        where source_file {IN_FILES}
        order by expected_agent = '(all)', expected_agent
        """,
        [source_files],
    )


def confusion(con: Connection, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, expected_agent, returned_agent, query_count,
               expected_agent = returned_agent as on_diagonal
        from router_agent__confusion
        where source_file {IN_FILES}
        order by expected_agent, returned_agent
        """,
        [source_files],
    )


def misrouted(con: Connection, source_files: list[str]) -> ByFile:
    """The queries routed elsewhere, or whose export verdict disagrees, in file order."""
    return rows_by_file(
        con,
        f"""
        select source_file, item_id, query_text, expected_agent, returned_agent, routed_right,
               export_verdict, verdict_disagrees, error_message
        from router_agent__routes
        where source_file {IN_FILES} and (not routed_right or verdict_disagrees)
        order by record_no
        """,
        [source_files],
    )


def settings(con: Connection, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, setting, setting_value, previous_source_file, previous_value, changed
        from router_agent__run_settings
        where source_file {IN_FILES}
        order by setting_no
        """,
        [source_files],
    )


def extra_contexts(
    con: Connection, source_files: list[str], contexts: dict[str, dict]
) -> dict[str, dict]:
    found = {"routing_rows": accuracy(con, source_files), "confusion_rows": confusion(
        con, source_files), "misrouted": misrouted(con, source_files),
        "settings_rows": settings(con, source_files)}
    return {f: {key: rows[f] for key, rows in found.items()} for f in source_files}
