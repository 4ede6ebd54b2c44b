"""The data-quality section of every agent's report: where each row of the file went.

Reads the input_files, rejected_rows and item_scores marts. Rendered by the partial
templates/_data_quality.md.j2 (layout only); every figure and phrase choice is made here.
"""

from __future__ import annotations

from agent_scoring.reports import Connection, rows

SHOWN_LOCATIONS = 10
SHOWN_QUERIES = 20
NEEDED_TABLES = ("input_files", "rejected_rows", "item_scores")


def data_quality(con: Connection, agent: str, source_file: str) -> dict:
    """Rows read / scored / rejected by reason, round sizes and one-round Query IDs."""
    present = {
        r["table_name"]
        for r in rows(con, "select table_name from information_schema.tables")
    }
    missing = [t for t in NEEDED_TABLES if t not in present]
    if missing:
        return {"available": False, "missing_table": missing[0]}

    found = rows(
        con,
        """
        select rows_read, rows_scored, rows_rejected, rows_unaccounted, encoding, read_from,
               unknown_columns
        from input_files
        where agent = ? and source_file = ?
        """,
        [agent, source_file],
    )
    counts = found[0] if found else {
        "rows_read": None, "rows_scored": 0, "rows_rejected": 0, "rows_unaccounted": None,
        "encoding": None, "read_from": None, "unknown_columns": [],
    }
    round_counts = _round_counts(con, agent, source_file)
    single_round = _single_round_queries(con, agent, source_file) if len(round_counts) > 1 else []
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
        "rejected_by_reason": _rejected_by_reason(con, agent, source_file),
        "round_counts": round_counts,
        "rounds_unequal": len(sizes) > 1,
        "round_size": sizes[0] if len(sizes) == 1 else None,
        "single_round_queries": single_round[:SHOWN_QUERIES],
        "single_round_query_count": len(single_round),
        "single_round_queries_hidden": max(0, len(single_round) - SHOWN_QUERIES),
    }


def _rejected_by_reason(con: Connection, agent: str, source_file: str) -> list[dict]:
    rejected = rows(
        con,
        """
        select reject_code, reject_reason, record_no, line_no
        from rejected_rows
        where agent = ? and source_file = ?
        order by reject_code, record_no nulls last, line_no
        """,
        [agent, source_file],
    )
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


def _round_counts(con: Connection, agent: str, source_file: str) -> list[dict]:
    return rows(
        con,
        """
        select round_label, count(*) as item_count, count(distinct query_id) as query_count
        from item_scores
        where agent = ? and source_file = ?
        group by round_label
        order by min(round_room), min(round_repeat), round_label
        """,
        [agent, source_file],
    )


def _single_round_queries(con: Connection, agent: str, source_file: str) -> list[dict]:
    return rows(
        con,
        """
        select query_id, min(round_label) as round_label, min(query_text) as query_text
        from item_scores
        where agent = ? and source_file = ? and query_id is not null
        group by query_id
        having count(distinct round_label) = 1
        order by query_id
        """,
        [agent, source_file],
    )
