"""The data-quality section of every agent's report: where each row of the file went.

Selects the rows of the report_* models of models/marts/reporting/_reporting__data_quality.yml
for the files rendered; every figure is made there. Rendered by the partial
templates/_data_quality.md.j2 (layout only); the display labels are here.
"""

from __future__ import annotations

from agent_scoring.reports import ByFile, Connection, first_by_file, rows, select_by_file, tables

SHOWN_QUERIES = 20
SHOWN_CELLS = 10
CELL_KINDS = {"formula": "수식", "error": "오류 값", "outside_header": "헤더 밖"}
TIME_PROBLEMS = {
    "comma_decimal": "쉼표 소수점(\"12,5\")",
    "not_a_number": "숫자 아님",
    "not_finite": "NaN·무한대",
    "negative": "음수",
    "too_large": "상한 초과",
}
NEEDED_TABLES = (
    "report_input_files", "report_cell_notes", "report_round_counts",
    "report_single_round_queries", "report_unusable_values", "report_rejected_reasons",
)
NO_INPUT_FILE_ROW = {
    "rows_read": None, "rows_scored": 0, "rows_rejected": 0, "rows_unaccounted": None,
    "reconciled": False, "encoding": None, "read_from": None, "unknown_columns": [],
    "sheet_name": None, "cell_note_count": 0,
}
NO_ROUNDS = {"round_count": 0, "rounds_unequal": False, "round_size": None}
NO_SINGLE_ROUND_QUERIES = {"single_round_query_count": 0}


def data_quality(con: Connection, agent: str, source_file: str) -> dict:
    """Rows read / scored / rejected by reason, round sizes and one-round Query IDs."""
    return data_quality_by_file(con, agent, [source_file])[source_file]


def data_quality_by_file(
    con: Connection, agent: str, source_files: list[str]
) -> dict[str, dict]:
    """`data_quality` of each file, from one run of each query."""
    present = tables(con)
    missing = [t for t in NEEDED_TABLES if t not in present]
    if missing:
        return {f: {"available": False, "missing_table": missing[0]} for f in source_files}

    files = first_by_file(_select(
        con, "report_input_files",
        "rows_read, rows_scored, rows_rejected, rows_unaccounted, reconciled, encoding, "
        "read_from, unknown_columns, sheet_name, cell_note_count",
        agent, source_files, order_by="source_file",
    ), source_files, NO_INPUT_FILE_ROW)
    rounds = _select(con, "report_round_counts",
                     "round_label, item_count, round_count, rounds_unequal, round_size",
                     agent, source_files, order_by="round_no")
    single_round = _select(con, "report_single_round_queries",
                           "query_id, round_label, query_text, single_round_query_count",
                           agent, source_files, order_by="query_no",
                           first=("query_no", SHOWN_QUERIES))
    rejected = _select(con, "report_rejected_reasons",
                       "reject_code, row_count, first_reject_reason, locations, "
                       "hidden_location_count",
                       agent, source_files, order_by="reason_no")
    cells = _select(con, "report_cell_notes", "cell, header_name, kind", agent, source_files,
                    order_by="note_no", first=("note_no", SHOWN_CELLS))
    times, statuses = (
        _select(con, "report_unusable_values", "value, row_count", agent, source_files,
                order_by="value_no", value_kind=kind)
        for kind in ("response_time_problem", "unknown_llm_status")
    )
    # files of the input folder nobody reads: said in every report (agent '(unclaimed)')
    unclaimed = [r["source_file"] for r in rows(
        con, "select source_file from report_input_files where agent = ? order by source_file",
        ["(unclaimed)"])]
    return {
        f: _section(files[f], rounds[f], single_round[f], rejected[f])
        | _value_notes(files[f], cells[f], times[f], statuses[f])
        | {"unclaimed_files": unclaimed}
        for f in source_files
    }


def _select(
    con: Connection, model: str, columns: str, agent: str, source_files: list[str], *,
    order_by: str, first: tuple[str, int] | None = None, value_kind: str | None = None,
) -> ByFile:
    """Per file: the model's rows of the agent's files, in order; `first`: (its numbering
    column, how many) to keep only the first rows; `value_kind`: only rows of that kind."""
    conditions, params = [], []
    if value_kind is not None:
        conditions, params = [*conditions, "value_kind = ?"], [*params, value_kind]
    if first is not None:
        conditions, params = [*conditions, f"{first[0]} <= ?"], [*params, first[1]]
    return select_by_file(con, model, columns, source_files, agent=agent,
                          where=" and ".join(conditions), params=tuple(params),
                          order=f"source_file, {order_by}")


def _section(
    counts: dict, rounds: list[dict], single_round: list[dict], rejected: list[dict]
) -> dict:
    file_rounds = rounds[0] if rounds else NO_ROUNDS
    queries = single_round[0] if single_round else NO_SINGLE_ROUND_QUERIES
    return {
        "available": True,
        "rows_read": counts["rows_read"],
        "rows_scored": counts["rows_scored"],
        "rows_rejected": counts["rows_rejected"],
        "rows_unaccounted": counts["rows_unaccounted"],
        "reconciled": counts["reconciled"],
        "encoding": counts["encoding"],
        "read_from": counts["read_from"],
        "unknown_columns": list(counts["unknown_columns"] or []),
        "rejected_by_reason": [
            {"reject_code": r["reject_code"], "n": r["row_count"],
             "example": r["first_reject_reason"], "locations": r["locations"],
             "hidden_locations": r["hidden_location_count"]}
            for r in rejected
        ],
        "round_counts": rounds,
        "round_count": file_rounds["round_count"],
        "rounds_unequal": file_rounds["rounds_unequal"],
        "round_size": file_rounds["round_size"],
        "single_round_queries": single_round,
        "single_round_query_count": queries["single_round_query_count"],
        "single_round_queries_hidden": max(
            0, queries["single_round_query_count"] - SHOWN_QUERIES),
    }


def _value_notes(
    counts: dict, cells: list[dict], times: list[dict], statuses: list[dict]
) -> dict:
    return {
        "sheet_name": counts["sheet_name"],
        "cell_notes": [
            {"cell": n["cell"], "text": ", ".join(
                x for x in (n["header_name"], CELL_KINDS.get(n["kind"], n["kind"])) if x)}
            for n in cells
        ],
        "cell_note_count": counts["cell_note_count"],
        "cell_notes_hidden": max(0, counts["cell_note_count"] - SHOWN_CELLS),
        "response_time_problems": [
            {"label": TIME_PROBLEMS.get(v["value"], v["value"]), "n": v["row_count"]}
            for v in times
        ],
        "unknown_llm_statuses": [
            {"llm_status": v["value"], "n": v["row_count"]} for v in statuses
        ],
    }
