"""The data-quality section of every agent's report: where each row of the file went.

Plain selects of the report_* models of models/marts/reporting/_reporting__data_quality.yml
(every figure, label and what is listed or counted is made there) for the files rendered;
laid out by the partial templates/_data_quality.md.j2.
"""

from __future__ import annotations

from agent_scoring.reports import Connection, first_by_file, rows, select_by_file, tables

# context key -> (model, columns, condition, order): the agent's rows of each file
SECTIONS = {
    "file": ("report_input_files", "rows_read, rows_scored, rows_rejected, rows_unaccounted, "
             "reconciled, encoding, read_from, unknown_columns, sheet_name, cell_note_count, "
             "hidden_cell_note_count", "", ""),
    "cell_notes": ("report_cell_notes", "cell, note_text", "is_shown", "note_no"),
    "round_counts": ("report_round_counts", "round_label, item_count, round_count, "
                     "rounds_unequal, round_size", "", "round_no"),
    "single_round_queries": ("report_single_round_queries", "query_id, round_label, "
                             "query_text, single_round_query_count, hidden_query_count",
                             "is_shown", "query_no"),
    "response_time_problems": ("report_unusable_values", "value_label, row_count",
                               "value_kind = 'response_time_problem'", "value_no"),
    "unknown_llm_statuses": ("report_unusable_values", "value, row_count",
                             "value_kind = 'unknown_llm_status'", "value_no"),
    "rejected_by_reason": ("report_rejected_reasons", "reject_code, row_count, "
                           "first_reject_reason, locations, hidden_location_count", "",
                           "reason_no"),
}
NO_INPUT_FILE_ROW = {
    "rows_read": None, "rows_scored": 0, "rows_rejected": 0, "rows_unaccounted": None,
    "reconciled": False, "encoding": None, "read_from": None, "unknown_columns": [],
    "sheet_name": None, "cell_note_count": 0, "hidden_cell_note_count": 0,
}


def data_quality(con: Connection, agent: str, source_file: str) -> dict:
    """Rows read / scored / rejected by reason, round sizes and one-round Query IDs."""
    return data_quality_by_file(con, agent, [source_file])[source_file]


def data_quality_by_file(
    con: Connection, agent: str, source_files: list[str]
) -> dict[str, dict]:
    """`data_quality` of each file, from one run of each query."""
    present = tables(con)
    missing = [model for model, *_ in SECTIONS.values() if model not in present]
    if missing:
        return {f: {"available": False, "missing_table": missing[0]} for f in source_files}
    found = {key: select_by_file(con, model, selected, source_files, agent=agent, where=where,
                                 order=order)
             for key, (model, selected, where, order) in SECTIONS.items()}
    files = first_by_file(found.pop("file"), source_files, NO_INPUT_FILE_ROW)
    # files of the input folder nobody reads: said in every report (agent '(unclaimed)')
    unclaimed = [r["source_file"] for r in rows(
        con, "select source_file from report_input_files where agent = ? order by source_file",
        ["(unclaimed)"])]
    return {f: {"available": True, "file": files[f], "unclaimed_files": unclaimed,
                **{key: by_file[f] for key, by_file in found.items()}} for f in source_files}
