"""The data-quality section of every agent's report: where each row of the file went.

Reads the input_files, rejected_rows and item_scores marts. Rendered by the partial
templates/_data_quality.md.j2 (layout only); every figure and phrase choice is made here.
"""

from __future__ import annotations

from collections import defaultdict

from agent_scoring.reports import IN_FILES, ByFile, Connection, first_by_file, rows, rows_by_file

SHOWN_LOCATIONS = 10
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
NEEDED_TABLES = ("input_files", "rejected_rows", "item_scores")
NO_INPUT_FILE_ROW = {
    "rows_read": None, "rows_scored": 0, "rows_rejected": 0, "rows_unaccounted": None,
    "encoding": None, "read_from": None, "unknown_columns": [], "sheet_name": None,
    "cell_notes": [],
}


def data_quality(con: Connection, agent: str, source_file: str) -> dict:
    """Rows read / scored / rejected by reason, round sizes and one-round Query IDs."""
    return data_quality_by_file(con, agent, [source_file])[source_file]


def data_quality_by_file(
    con: Connection, agent: str, source_files: list[str]
) -> dict[str, dict]:
    """`data_quality` of each file, from one run of each query."""
    present = {
        r["table_name"]
        for r in rows(con, "select table_name from information_schema.tables")
    }
    missing = [t for t in NEEDED_TABLES if t not in present]
    if missing:
        return {f: {"available": False, "missing_table": missing[0]} for f in source_files}

    found = rows_by_file(
        con,
        f"""
        select source_file, rows_read, rows_scored, rows_rejected, rows_unaccounted, encoding,
               read_from, unknown_columns, sheet_name, cell_notes
        from input_files
        where agent = ? and source_file {IN_FILES}
        """,
        [agent, source_files],
    )
    counts = first_by_file(found, source_files, NO_INPUT_FILE_ROW)
    round_counts = _round_counts(con, agent, source_files)
    # Only files of several rounds can have a Query ID asked in just one.
    single_round = _single_round_queries(
        con, agent, [f for f in source_files if len(round_counts[f]) > 1])
    rejected = _rejected_rows(con, agent, source_files)
    values = _unusable_values(con, agent, source_files)
    # files of the input folder nobody reads: said in every report (agent '(unclaimed)')
    unclaimed = [r["source_file"] for r in rows(
        con, "select source_file from input_files where agent = '(unclaimed)' order by 1")]
    return {
        f: _section(counts[f], round_counts[f], single_round[f], _by_reason(rejected[f]))
        | _value_notes(counts[f], values[f]) | {"unclaimed_files": unclaimed}
        for f in source_files
    }


def _unusable_values(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    """Per file: response times that give no speed score (by reason) and LLM 상태 values the
    seed does not know, counted."""
    return rows_by_file(
        con,
        f"""
        select source_file, 'time' as kind, response_time_problem as value, count(*) as n
        from item_scores
        where agent = ? and source_file {IN_FILES}
            and response_time_problem is not null and response_time_problem <> 'missing'
        group by all
        union all
        select source_file, 'status', llm_status, count(*)
        from item_scores
        where agent = ? and source_file {IN_FILES} and llm_status_class = 'unknown'
        group by all
        order by kind, n desc, value
        """,
        [agent, source_files, agent, source_files],
    )


def _value_notes(counts: dict, values: list[dict]) -> dict:
    notes = list(counts.get("cell_notes") or [])
    shown = [
        {"cell": n["cell"], "text": ", ".join(
            x for x in (n["header_name"], CELL_KINDS.get(n["kind"], n["kind"])) if x)}
        for n in notes[:SHOWN_CELLS]
    ]
    return {
        "sheet_name": counts.get("sheet_name"),
        "cell_notes": shown,
        "cell_note_count": len(notes),
        "cell_notes_hidden": max(0, len(notes) - SHOWN_CELLS),
        "response_time_problems": [
            {"label": TIME_PROBLEMS.get(v["value"], v["value"]), "n": v["n"]}
            for v in values if v["kind"] == "time"
        ],
        "unknown_llm_statuses": [
            {"llm_status": v["value"], "n": v["n"]} for v in values if v["kind"] == "status"
        ],
    }


def _section(
    counts: dict, round_counts: list[dict], single_round: list[dict], rejected: list[dict]
) -> dict:
    sizes = sorted({r["item_count"] for r in round_counts})
    return {
        "available": True,
        "rows_read": counts["rows_read"],
        "rows_scored": counts["rows_scored"],
        "rows_rejected": counts["rows_rejected"],
        "rows_unaccounted": counts["rows_unaccounted"],
        "reconciled": counts["rows_unaccounted"] == 0,
        "encoding": counts["encoding"],
        "read_from": counts["read_from"],
        "unknown_columns": list(counts["unknown_columns"] or []),
        "rejected_by_reason": rejected,
        "round_counts": round_counts,
        "rounds_unequal": len(sizes) > 1,
        "round_size": sizes[0] if len(sizes) == 1 else None,
        "single_round_queries": single_round[:SHOWN_QUERIES],
        "single_round_query_count": len(single_round),
        "single_round_queries_hidden": max(0, len(single_round) - SHOWN_QUERIES),
    }


def _rejected_rows(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, reject_code, reject_reason, record_no, line_no
        from rejected_rows
        where agent = ? and source_file {IN_FILES}
        order by reject_code, record_no nulls last, line_no
        """,
        [agent, source_files],
    )


def _by_reason(rejected: list[dict]) -> list[dict]:
    """One file's rejected rows grouped by reject code, most frequent first."""
    groups: dict[str, dict] = {}
    for r in rejected:
        group = groups.setdefault(
            r["reject_code"],
            {"reject_code": r["reject_code"], "example": r["reject_reason"], "n": 0,
             "locations": []},
        )
        group["n"] += 1
        group["locations"].append(_location(r["record_no"], r["line_no"]))
    result = sorted(groups.values(), key=lambda g: (-g["n"], g["reject_code"]))
    for group in result:
        group["hidden_locations"] = max(0, len(group["locations"]) - SHOWN_LOCATIONS)
        group["locations"] = group["locations"][:SHOWN_LOCATIONS]
    return result


def _location(record_no: int | None, line_no: int | None) -> str:
    """`#5` is data record 5 (Excel row 6); `line 14` the physical line of the file."""
    if record_no is not None and line_no is not None:
        return f"#{record_no} (line {line_no})"
    if record_no is not None:
        return f"#{record_no}"
    return f"line {line_no}"


def _round_counts(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, round_label, count(*) as item_count,
               count(distinct query_id) as query_count
        from item_scores
        where agent = ? and source_file {IN_FILES}
        group by source_file, round_label
        order by min(round_room), min(round_repeat), round_label
        """,
        [agent, source_files],
    )


def _single_round_queries(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    if not source_files:
        return defaultdict(list)
    return rows_by_file(
        con,
        f"""
        select source_file, query_id, min(round_label) as round_label,
               min(query_text) as query_text
        from item_scores
        where agent = ? and source_file {IN_FILES} and query_id is not null
        group by source_file, query_id
        having count(distinct round_label) = 1
        order by query_id
        """,
        [agent, source_files],
    )
