"""What the URL agent's (이동 에이전트) report adds to the generic one: accuracy as the team
counts it (success 5 / partial 3 / failure 0 per round) and why items failed, from its own
mart url_agent__url_matches."""

from __future__ import annotations

from agent_scoring.reports import Connection, select_by_file

REQUIRED_TABLES = ("report_url_agent__accuracy", "report_url_agent__failure_reasons",
                   "report_url_agent__failed_items")
SHOWN_FAILURES = 30
# context key -> (model, columns, condition, order)
SECTIONS = {
    # per round and for the set, items by accuracy points and their mean
    "accuracy_rows": (
        "report_url_agent__accuracy", "row_label, item_count, success_count, partial_count, "
        "failed_count, unscored_count, success_rate, mean_accuracy", "", "row_order"),
    "failure_reasons": (
        "report_url_agent__failure_reasons", "failure_reason, item_count, rounds", "",
        "reason_rank"),
    # the items that did not fully match, in file order (the first SHOWN_FAILURES)
    "failed_items": (
        "report_url_agent__failed_items", "query_id, query_text, round_label, failure_reason, "
        "match_kind, accuracy_score, expected, returned, error_message, file_failed_count",
        f"item_rank <= {SHOWN_FAILURES}", "item_rank"),
}


def extra_contexts(
    con: Connection, source_files: list[str], contexts: dict[str, dict]
) -> dict[str, dict]:
    found = {key: select_by_file(con, model, selected, source_files, where=where, order=order)
             for key, (model, selected, where, order) in SECTIONS.items()}
    failed = found["failed_items"]
    return {
        f: {key: rows[f] for key, rows in found.items()}
        | {"failed_hidden": failed[f][0]["file_failed_count"] - len(failed[f]) if failed[f]
           else 0}
        for f in source_files
    }
