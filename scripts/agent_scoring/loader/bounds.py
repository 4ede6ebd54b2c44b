"""Records too wide to hand to DuckDB: each is rejected as that record, never the file.

DuckDB reports a record with too many fields once per extra field, each time with the whole
line: a record of 200,000 fields takes minutes and gigabytes. Such a record is replaced, in a
copy of the file that DuckDB reads, by an empty placeholder record padded with blank lines,
so every other record keeps its record and line number; the loader then swaps the
placeholder's row for a rejected row naming the record.
"""

from __future__ import annotations

import csv
import itertools
import operator
from pathlib import Path

from agent_scoring.loader.inspect import copy_path

CHUNK_BYTES = 1 << 24
EXCERPT_CHARS = 300


def has_wide_line(path: str, max_fields: int) -> bool:
    """Whether any physical line holds max_fields field separators or more: commas outside
    quotes, with the quote state carried from line to line (an escaped quote is two quotes,
    so it never flips it). Commas are counted at C speed; only a line with that many commas
    at all (a long JSON cell has them inside its quotes) is split at its quotes. A malformed
    quote can make it say yes: the exact check follows only then."""
    pending, in_quotes = b"", 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            if wide_line_among(lines, in_quotes, max_fields):
                return True
            in_quotes ^= sum(map(bytes.count, lines, itertools.repeat(b'"'))) & 1
    return wide_line_among([pending], in_quotes, max_fields)


def wide_line_among(lines: list[bytes], in_quotes: int, max_fields: int) -> bool:
    """Whether one of `lines` (the first starting inside quotes when `in_quotes`) holds
    max_fields commas outside quotes."""
    many = list(map(operator.ge, map(bytes.count, lines, itertools.repeat(b",")),
                    itertools.repeat(max_fields)))
    if not any(many):
        return False
    quoted = list(itertools.accumulate(map(bytes.count, lines, itertools.repeat(b'"')),
                                       operator.xor, initial=in_quotes))
    for n in itertools.compress(range(len(lines)), many):
        # the segments between quotes alternate outside / inside from the line's state; an
        # adjacent pair of quotes (an escaped quote) leaves every comma on its side, so the
        # pairs go first (a JSON cell has thousands)
        segments = lines[n].replace(b'""', b"").split(b'"')[quoted[n] & 1::2]
        if sum(map(bytes.count, segments, itertools.repeat(b","))) >= max_fields:
            return True
    return False


def blank_wide_records(
    path: str, original: Path, max_fields: int, columns: int, out_dir: Path
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
                "csv_line": lines[first_line - 1].decode("utf-8", "replace")[:EXCERPT_CHARS],
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
