"""Records too wide to hand to DuckDB: each is rejected as that record, never the file.

DuckDB reports a record with too many fields once per extra field, each time with the whole
line: a record of 200,000 fields takes minutes and gigabytes. Such a record is replaced, in a
copy of the file that DuckDB reads, by an empty placeholder record padded with blank lines,
so every other record keeps its record and line number; the loader then swaps the
placeholder's row for a rejected row naming the record. The scan of each file
(agent_scoring.record_count) says whether it has such a line; only then is it read here.
"""

from __future__ import annotations

import csv
from pathlib import Path

from agent_scoring.loader.inspect import copy_path


def blank_wide_records(
    path: str, original: Path, max_fields: int, columns: int, out_dir: Path,
    excerpt_chars: int = 300,
) -> tuple[str, list[dict]]:
    """(the file to read, the rejected records): a copy in which each record of more than
    max_fields fields is an empty placeholder, or `path` itself when there is none. Each
    reject carries its record number (blank lines are not records), first line (the header
    is line 1) and reason."""
    csv.field_size_limit(2**31 - 1)
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    reader = csv.reader(line.decode("utf-8", "surrogateescape") + "\n" for line in lines)
    next(reader, None)
    wide: list[dict] = []
    records, last_line = 0, 1
    for record in reader:
        first_line, last_line = last_line + 1, reader.line_num
        if not record:
            continue
        records += 1
        if len(record) > max_fields:
            wide.append({
                "record_no": records, "line_no": first_line, "byte_position": None,
                "error_type": "TOO MANY COLUMNS",
                "error_message": f"the record has {len(record)} fields; records of more than "
                                 f"{max_fields} (vars.csv_max_fields) are not read",
                "csv_line": lines[first_line - 1].decode("utf-8", "replace")[:excerpt_chars],
            })
            ending = b"\r" if lines[last_line - 1].endswith(b"\r") else b""
            lines[first_line - 1] = b"," * (columns - 1) + ending
            for n in range(first_line, last_line):
                lines[n] = ending
    if not wide:
        return path, []
    target = copy_path(original, out_dir, "fields")
    with open(target, "wb") as handle:
        handle.write(b"\n".join(lines))
    return str(target), wide
