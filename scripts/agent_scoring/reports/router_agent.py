"""What the router agent's (라우터 에이전트) report adds to the generic one: routing accuracy per
expected agent, the confusion matrix, latency and tokens, the export's verdicts that
disagree, and the run settings beside the previous run's. Plain selects of its marts
(router_agent__accuracy, __confusion, __routes, __run_settings)."""

from __future__ import annotations

from agent_scoring.reports import Connection, select_by_file

REQUIRED_TABLES = ("router_agent__accuracy", "router_agent__confusion", "router_agent__routes",
                   "router_agent__run_settings")
# context key -> (model, columns, condition, order)
SECTIONS = {
    "routing_rows": (
        "router_agent__accuracy",
        "expected_agent, query_count, routed_right_count, accuracy, verdict_disagreements, "
        "error_count, latency_mean_sec, latency_p50_sec, latency_p90_sec, input_tokens_mean, "
        "output_tokens_mean, total_tokens_mean", "", "expected_agent = '(all)', expected_agent"),
    "confusion_rows": (
        "router_agent__confusion", "expected_agent, returned_agent, query_count, "
        "expected_agent = returned_agent as on_diagonal", "", "expected_agent, returned_agent"),
    # the queries routed elsewhere, or whose export verdict disagrees, in file order
    "misrouted": (
        "router_agent__routes", "item_id, query_text, expected_agent, returned_agent, "
        "routed_right, export_verdict, verdict_disagrees, error_message",
        "(not routed_right or verdict_disagrees)", "record_no"),
    "settings_rows": (
        "router_agent__run_settings", "setting, setting_value, previous_source_file, "
        "previous_value, changed", "", "setting_no"),
}


def extra_contexts(
    con: Connection, source_files: list[str], contexts: dict[str, dict]
) -> dict[str, dict]:
    found = {key: select_by_file(con, model, selected, source_files, where=where, order=order)
             for key, (model, selected, where, order) in SECTIONS.items()}
    return {f: {key: rows[f] for key, rows in found.items()} for f in source_files}
