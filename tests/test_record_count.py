"""The scan of each export (agent_scoring.record_count, used by the loader): its record count
agrees with Python's csv module, and the wide-line check finds every wide record; staging's
own split of a file into CSV rows (macro csv_rows) agrees with the csv module (hypothesis).

A clean UTF-8 export skips the slow csv-module pass when DuckDB's count and this count
agree, so the count must be right for any quoting: multi-line cells, escaped quotes, blank
lines inside and between records, CRLF or LF, and records split across read chunks.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import duckdb
import jinja2
import numpy as np
import pytest
import xxhash
from agent_scoring import record_count
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

FIELD = st.lists(st.sampled_from(['a', '한', ',', '"', '""', '\n', '\r\n', ' ', '{"k": 1}']),
                 max_size=8).map("".join)
RECORD = st.lists(FIELD, min_size=1, max_size=4)
MACROS = Path(__file__).resolve().parents[1] / "macros"


def csv_module_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def count_records(path: str) -> int:
    """The csv module's data records (a blank row is none)."""
    csv.field_size_limit(2**31 - 1)
    rows = csv_module_rows(Path(path).read_text(encoding="utf-8-sig"))
    return sum(1 for row in rows[1:] if row)


@settings(max_examples=300, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(records=st.lists(RECORD, max_size=8), terminator=st.sampled_from(["\r\n", "\n"]),
       blank_after=st.sets(st.integers(0, 8)), final_newline=st.booleans(),
       chunk_bytes=st.sampled_from([1, 2, 3, 7, 1 << 16]))
def test_quick_count_equals_the_csv_module_count(
    tmp_path, monkeypatch, records, terminator, blank_after, final_newline,
    chunk_bytes,
):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=terminator)
    writer.writerow(["Item ID", "Raw JSON"])
    for number, record in enumerate(records):
        writer.writerow(record)
        if number in blank_after:
            out.write(terminator)
    text = out.getvalue()
    if not final_newline:
        text = text.removesuffix(terminator)
    path = tmp_path / "plan_agent_x.csv"
    path.write_bytes(text.encode("utf-8"))
    monkeypatch.setattr(record_count, "CHUNK_BYTES", chunk_bytes)

    scan = record_count.scan_file(str(path), 1000)
    assert scan.records == count_records(str(path))
    assert scan.content_hash == xxhash.xxh3_128(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("process_min_bytes", [0, 1 << 40])
def test_the_counter_gives_every_file_its_count_in_processes_or_a_thread(
    tmp_path, monkeypatch, process_min_bytes
):
    monkeypatch.setattr(record_count, "PROCESS_MIN_BYTES", process_min_bytes)
    paths = []
    for rows in range(4):
        path = tmp_path / f"plan_agent_{rows}.csv"
        path.write_text("Item ID,Raw JSON\r\n" + "i,\"{\"\"a\"\": 1}\"\r\n" * rows)
        paths.append(str(path))
    with record_count.FileScanner(paths, 1000) as scanner:
        counts = {path: scanner.futures[path].result().records for path in paths}
    assert counts == {path: rows for rows, path in enumerate(paths)}


@settings(max_examples=300, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(records=st.lists(st.lists(FIELD, min_size=1, max_size=9), max_size=6),
       max_fields=st.integers(2, 6), chunk_bytes=st.sampled_from([1, 3, 7, 1 << 16]))
@example(records=[["x\n,,,,,,"]], max_fields=3, chunk_bytes=1 << 16)  # commas in a cell
def test_the_wide_line_check_finds_every_wide_record_and_nothing_else(
    tmp_path, monkeypatch, records, max_fields, chunk_bytes
):
    """The wide-line check (it spares the csv-module pass over landed files with none) finds
    a file with a record of more than max_fields fields on one line, and never a file whose
    records are all within max_fields."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([["Item ID", "Raw JSON"], *records])
    path = tmp_path / "plan_agent_x.csv"
    path.write_bytes(out.getvalue().encode("utf-8"))
    monkeypatch.setattr(record_count, "CHUNK_BYTES", chunk_bytes)

    found = record_count.has_wide_line(str(path), max_fields)
    assert record_count.scan_file(str(path), max_fields).wide == found
    wide = [record for record in records if len(record) > max_fields]
    if not wide:
        assert not found
    elif any("\n" not in "".join(record) for record in wide):
        assert found


@settings(max_examples=300, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(records=st.lists(st.tuples(FIELD, st.sampled_from(["\r\n", "\n"])), max_size=6),
       chunk_bytes=st.sampled_from([1, 3, 7, 1 << 16]))
def test_the_newline_flag_says_whether_records_end_in_both_crlf_and_lf(
    tmp_path, monkeypatch, records, chunk_bytes
):
    """The flag that makes the loader land a file rather than staging read it in place:
    records, the header among them, ending in both CRLF and LF, whatever line breaks their
    quoted cells hold (DuckDB reads such a file wrong), or a CR not before an LF (it fails
    even a tolerant read)."""
    out = io.StringIO()
    out.write("Item ID\r\n")
    for field, terminator in records:
        csv.writer(out, lineterminator=terminator).writerow([field])
    path = tmp_path / "plan_agent_x.csv"
    path.write_bytes(out.getvalue().encode("utf-8"))
    monkeypatch.setattr(record_count, "CHUNK_BYTES", chunk_bytes)
    endings = {"\r\n"} | {terminator for _, terminator in records}
    text = out.getvalue()
    lone_cr = text.count("\r") != text.count("\r\n")
    assert record_count.scan_file(str(path), 1000).odd_newlines == (
        len(endings) == 2 or lone_cr)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 1200), st.integers(0, 4)),
                      min_size=1, max_size=8),
       max_fields=st.sampled_from([1, 40, 999, 1000]), in_quotes=st.integers(0, 1),
       seed=st.integers(0, 2**32 - 1))
# whole blocks of nothing but commas: the most a block's byte sums reach
@example(lines=[(0, 4100, 0)], max_fields=1000, in_quotes=0, seed=0)
def test_the_wide_check_over_many_blocks_counts_only_separators_outside_quotes(
    lines, max_fields, in_quotes, seed
):
    """Lines of up to a few kB cross the blocks the check bounds a line's commas by; quotes
    decide which commas separate fields. The check agrees with counting byte by byte."""
    rng = np.random.default_rng(seed)
    text = bytearray()
    for letters, commas, quotes in lines:
        line = bytearray(b"a" * letters + b"," * commas + b'"' * quotes)
        rng.shuffle(line)
        text += line + b"\n"
    data = np.frombuffer(bytes(text), np.uint8)
    found = np.empty(len(data), bool)
    starts, ends, before, _ = record_count._line_states(data, in_quotes, found)

    def separators(line: int) -> int:
        quoted, count = bool(before[line]), 0
        for byte in bytes(text[starts[line]:ends[line]]):
            if byte == ord('"'):
                quoted = not quoted
            elif byte == ord(",") and not quoted:
                count += 1
        return count

    expected = any(separators(line) >= max_fields for line in range(len(starts)))
    assert record_count._any_wide(data, starts, ends, before, max_fields, found) == expected


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from(['a', '한', ',', '"', '""', '\n', '\r', '\r\n', ' ']),
                     max_size=40).map("".join))
def test_staging_splits_any_text_into_the_csv_modules_rows(text):
    """The macro that counts and locates the records of a file DuckDB read with a reject
    (locate_read_rejects) splits it into the rows the csv module reads, blank ones too (any
    quoting, broken or not); only a last '' (after a final line end, or of an empty text) is
    more."""
    macro = jinja2.Environment().from_string(
        (MACROS / "csv_rows.sql").read_text(encoding="utf-8")).module.csv_rows
    with duckdb.connect() as con:
        found = con.execute(f"select {macro('$text')}", {"text": text}).fetchone()[0]
    rows = [bool(row) for row in csv_module_rows(text)]
    assert [row != "" for row in found] in (rows, [*rows, False])
