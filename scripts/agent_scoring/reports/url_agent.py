"""What the URL agent's (이동 에이전트) report adds to the generic one: accuracy as the team
counts it (success 5 / partial 3 / failure 0 per round) and why items failed, from its own
mart url_agent__url_matches."""

from __future__ import annotations

from agent_scoring.reports import IN_FILES, ByFile, Connection, rows_by_file

AGENT = "url_agent"
REQUIRED_TABLES = ("url_agent__url_matches",)
SHOWN_FAILURES = 30


def accuracy_by_round(con: Connection, source_files: list[str]) -> ByFile:
    """Per file: per round and for the set, items by accuracy points and their mean."""
    return rows_by_file(
        con,
        f"""
        with items as (
            select i.source_file, i.round_label, i.round_room, i.round_repeat,
                   i.accuracy_score
            from item_scores as i
            where i.agent = ? and i.source_file {IN_FILES}
        ),
        grouped as (
            select source_file, round_label as label, min(round_room) as room,
                   min(round_repeat) as rep, count(*) as items,
                   count_if(accuracy_score = 5) as success, count_if(accuracy_score = 3) as partial,
                   count_if(accuracy_score = 0) as failed,
                   count(accuracy_score) as scored, avg(accuracy_score) as mean
            from items
            group by grouping sets ((source_file, round_label), (source_file))
        )
        select source_file, coalesce(label, '세트') as label, items, success, partial, failed,
               items - scored as unscored, success / nullif(scored, 0) as success_rate, mean
        from grouped
        order by label is null, room, rep, label
        """,
        [AGENT, source_files],
    )


def failure_reasons(con: Connection, source_files: list[str]) -> ByFile:
    """Per file: items by failure reason and round."""
    return rows_by_file(
        con,
        f"""
        select m.source_file, m.failure_reason as reason,
               count(*) as n,
               string_agg(distinct i.round_label, ', ' order by i.round_label) as rounds
        from url_agent__url_matches as m
        inner join item_scores as i using (source_file, record_no)
        where i.agent = ? and m.source_file {IN_FILES} and m.failure_reason is not null
        group by m.source_file, m.failure_reason
        order by n desc, reason
        """,
        [AGENT, source_files],
    )


def failed_items(con: Connection, source_files: list[str]) -> ByFile:
    """Per file: the items that did not fully match, in file order (first SHOWN_FAILURES)."""
    return rows_by_file(
        con,
        f"""
        select m.source_file, i.query_id, i.query_text, i.round_label, m.failure_reason,
               m.match_kind, i.accuracy_score,
               coalesce(m.expected_data_key, m.expected_path) as expected,
               array_to_string(m.button_urls, ' ') as returned,
               i.error_message,
               count(*) over (partition by m.source_file) as total
        from url_agent__url_matches as m
        inner join item_scores as i using (source_file, record_no)
        where i.agent = ? and m.source_file {IN_FILES} and m.failure_reason is not null
        qualify row_number() over (partition by m.source_file order by m.record_no)
                <= {SHOWN_FAILURES}
        order by m.record_no
        """,
        [AGENT, source_files],
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
            "failed_hidden": max(0, (failed[f][0]["total"] if failed[f] else 0)
                                 - len(failed[f])),
        }
        for f in source_files
    }
