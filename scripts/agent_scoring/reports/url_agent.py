"""What the URL agent's (이동 에이전트) report adds to the generic one: accuracy as the team
counts it (success 5 / partial 3 / failure 0 per round) and why items failed, from its own
mart url_agent__url_matches."""

from __future__ import annotations

from agent_scoring.reports import IN_FILES, ByFile, Connection, rows_by_file

AGENT = "url_agent"
REQUIRED_TABLES = ("report_url_agent__accuracy", "report_url_agent__failure_reasons",
                   "report_url_agent__failed_items")
SHOWN_FAILURES = 30


def accuracy_by_round(con: Connection, source_files: list[str]) -> ByFile:
    """Per file: per round and for the set, items by accuracy points and their mean."""
    return rows_by_file(
        con,
        f"""
        select source_file, row_label, item_count, success_count, partial_count, failed_count,
               unscored_count, success_rate, mean_accuracy
        from report_url_agent__accuracy
        where source_file {IN_FILES}
        order by row_order
        """,
        [source_files],
    )


def failure_reasons(con: Connection, source_files: list[str]) -> ByFile:
    """Per file: items by failure reason and round."""
    return rows_by_file(
        con,
        f"""
        select source_file, failure_reason, item_count, rounds
        from report_url_agent__failure_reasons
        where source_file {IN_FILES}
        order by reason_rank
        """,
        [source_files],
    )


def failed_items(con: Connection, source_files: list[str]) -> ByFile:
    """Per file: the items that did not fully match, in file order (first SHOWN_FAILURES)."""
    return rows_by_file(
        con,
        f"""
        select source_file, query_id, query_text, round_label, failure_reason, match_kind,
               accuracy_score, expected, returned, error_message, file_failed_count
        from report_url_agent__failed_items
        where source_file {IN_FILES} and item_rank <= ?
        order by item_rank
        """,
        [source_files, SHOWN_FAILURES],
    )


def extra_contexts(
    con: Connection, source_files: list[str], contexts: dict[str, dict]
) -> dict[str, dict]:
    accuracy = accuracy_by_round(con, source_files)
    reasons = failure_reasons(con, source_files)
    failed = failed_items(con, source_files)
    return {
        f: {
            "accuracy_rows": accuracy[f],
            "failure_reasons": reasons[f],
            "failed_items": failed[f],
            "failed_hidden": (failed[f][0]["file_failed_count"] - len(failed[f])
                              if failed[f] else 0),
        }
        for f in source_files
    }
