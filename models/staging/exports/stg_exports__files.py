"""One row per export in the input directory: its encoding, header and readiness.

DuckDB reads only UTF-8 CSV, so this model decides how every file is read before any SQL
touches it: UTF-8 (with or without BOM) is read in place; UTF-16 and CP949 (what Korean
Excel saves) are transcoded to UTF-8 copies; an xlsx export (the platform's) is written out
as a UTF-8 CSV copy of its sheet (agent_scoring.xlsx); anything else is refused with a
reason.
The header is parsed here, by name, so later models never depend on column order.

It also makes the row accounting possible (SCORING §0, "nothing is dropped silently"):

* `csv_records` counts the file's data records in Python, independently of the DuckDB path
  that scores them (the reconciliation test compares the two).
* A DuckDB probe reads the file with exactly the options `stg_exports__rows` will use
  (`read_options`) and keeps the records DuckDB cannot parse (`csv_rejects`, with their
  line numbers). A file whose records end in both CRLF and LF (DuckDB refuses those) is
  read through a copy with uniform CRLF endings. A file on whose record count the two still
  disagree (a quote that never closes) is refused as a whole: ambiguous_records.

Cost: clean UTF-8 files are checked cheaply: one count(*) scan in DuckDB per group of files
sharing a header, while worker processes validate UTF-8 and count record ends by quote
parity (agent_scoring.record_count); about 8 s for 1M rows / 3.7 GB on 2 cores. Only a file
where those disagree or DuckDB rejects a record gets the full probe and the csv-module count
(~190 MB/s, one core), which also number its rejects.
"""

import codecs
import contextlib
import csv
import hashlib
import io
import re
from pathlib import Path

import duckdb

# agent_scoring.xlsx and .record_count are imported where a file needs them: a build with
# nothing new to inspect should not pay for loading them.

SNIFF_BYTES = 1 << 16
EXCERPT_CHARS = 300

# A quoted field (only where a field starts), a record terminator outside quotes, or a
# stray quote (one that neither opens nor closes a field: the quoting is broken).
_FIELD_OR_NEWLINE = re.compile(r'(?<![^,\r\n])"[^"]*(?:""[^"]*)*"|\r\n|\r|\n|"')


def detect_encoding(head: bytes) -> str | None:
    """Name the codec a file's first bytes decode with, or None when none fits."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\x00" in head[:2048]:
        # UTF-16 without a BOM: ASCII header letters leave every other byte zero
        sample = head[:2048]
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        # (a Hangul syllable such as U+C900 has a zero low byte now and then)
        if odd > len(sample) // 4 and even * 10 < odd:
            return "utf-16-le"
        if even > len(sample) // 4 and odd * 10 < even:
            return "utf-16-be"
        return None
    for name in ("utf-8", "cp949"):
        try:
            codecs.getincrementaldecoder(name)().decode(head, final=False)
        except UnicodeDecodeError:
            continue
        return name
    return None


def header_of(text: str) -> list[str]:
    """The first CSV record, names trimmed and a stray BOM removed."""
    first = next(csv.reader(io.StringIO(text, newline="")), [])
    return [name.replace("\ufeff", "").strip() for name in first]


def copy_path(path: Path, out_dir: Path, suffix: str) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    return out_dir / f"{path.stem}.{digest}.{suffix}.csv"


def transcode(path: Path, encoding: str, out_dir: Path) -> Path:
    """Write a UTF-8 copy of a file DuckDB cannot read as is (strict: never mis-decodes)."""
    target = copy_path(path, out_dir, "utf8")
    text = path.read_bytes().decode(encoding)
    target.write_text(text.lstrip("\ufeff"), encoding="utf-8", newline="")
    return target


def newline_counts(text: str) -> tuple[int, int, int]:
    """(CRLF, bare LF or CR) record terminators outside quoted fields, and stray quotes."""
    crlf = other = stray = 0
    for match in _FIELD_OR_NEWLINE.finditer(text):
        token = match.group()
        if token == "\r\n":
            crlf += 1
        elif token in ("\n", "\r"):
            other += 1
        elif token == '"':
            stray += 1
    return crlf, other, stray


def normalize_newlines(source: Path, original: Path, out_dir: Path) -> Path | None:
    """A copy whose records all end in CRLF, or None unless the endings are mixed.

    Only a file whose quoting is intact qualifies: after a broken quote nobody can tell a
    line break inside a cell from one between records, so such a file is not rewritten.
    """
    with open(source, encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
        text = handle.read()
    crlf, other, stray = newline_counts(text)
    if not (crlf and other) or stray:
        return None
    fixed = _FIELD_OR_NEWLINE.sub(
        lambda m: m.group() if m.group().startswith('"') else "\r\n", text
    )
    target = copy_path(original, out_dir, "crlf")
    target.write_text(fixed, encoding="utf-8", errors="surrogateescape", newline="")
    return target


def first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def read_options(column_names: list[str], max_line_bytes: int) -> str:
    """The read_csv parameters for one file: pinned dialect, every column VARCHAR by name.

    DuckDB's sniffer can mistake a file with one broken quote for a one-column file, so
    nothing is auto-detected. A record DuckDB cannot parse is skipped (ignore_errors) and
    reported by the probe below, which runs with these very options. store_rejects is not
    optional: with ignore_errors alone DuckDB 2.0 stops at the first bad record and drops
    every record after it without a word.
    """
    columns = ", ".join(f"{sql_text(c)}: 'VARCHAR'" for c in column_names)
    return (
        "header = true, auto_detect = false, delim = ',', quote = '\"', escape = '\"', "
        f"max_line_size = {max_line_bytes}, ignore_errors = true, store_rejects = true, "
        # braces concatenated, not f-string-escaped: dbt renders this file with Jinja
        + "columns = {" + columns + "}"
    )


def probe(session, read_path: str, options: str) -> tuple[int, dict[int, dict]]:
    """Parse the file as stg_exports__rows will: (records parsed, rejects by DuckDB line).

    DuckDB's reject `line` counts the header, records and blank lines (not the lines inside
    quoted cells); `line_byte_position` is where the record starts. Every column is
    aggregated: a count(*) alone would not decode the values and miss invalid UTF-8.
    """
    scans, errors = "stg_exports__probe_scans", "stg_exports__probe_errors"
    session.execute(f"drop table if exists {errors}")
    session.execute(f"drop table if exists {scans}")
    try:
        parsed = session.execute(
            f"select count(*), count(columns(*)) from read_csv({sql_text(read_path)}, "
            f"{options}, rejects_scan = '{scans}', rejects_table = '{errors}')"
        ).fetchall()[0][0]  # fetchall: the rejects tables appear when the scan completes
        found = session.execute(
            "select line, line_byte_position, error_type, error_message, csv_line "
            f"from {errors} order by line"
        ).fetchall()
    finally:
        session.execute(f"drop table if exists {errors}")
        session.execute(f"drop table if exists {scans}")
    rejects: dict[int, dict] = {}
    for line, byte_position, error_type, message, csv_line in found:
        entry = rejects.setdefault(
            int(line),
            {
                "line_no": None,
                "record_no": None,
                "byte_position": byte_position,
                "error_type": error_type,
                "error_message": message,
                "csv_line": (csv_line or "").lstrip("\r\n")[:EXCERPT_CHARS],
            },
        )
        if message and message not in entry["error_message"]:
            if len(entry["error_message"]) < EXCERPT_CHARS:
                entry["error_message"] += f"; {message}"
            elif not entry["error_message"].endswith("…"):
                entry["error_message"] += "; …"
    return parsed, rejects


def count_records(read_path: str, rejects: dict[int, dict]) -> int:
    """Data records per Python's csv module (blank lines are not records, as in DuckDB).

    Also gives each reject its record number: DuckDB line L is the (L-1)th row after the
    header, blank rows included. One pass at about 190 MB/s on one core.
    """
    csv.field_size_limit(2**31 - 1)
    with open(read_path, encoding="utf-8-sig", errors="replace", newline="") as handle:
        reader = csv.reader(handle)
        if next(reader, None) is None:
            return 0
        records = 0
        for duckdb_line, record in enumerate(reader, start=2):
            if record:
                records += 1
                if duckdb_line in rejects:
                    rejects[duckdb_line]["record_no"] = records
    return records


def locate_rejects(read_path: str, rejects: dict[int, dict]) -> list[dict]:
    """The rejects with the physical line each starts on (header = line 1), in file order."""
    located = []
    with open(read_path, "rb") as handle:
        data_end, newlines = 0, 0
        for entry in sorted(rejects.values(), key=lambda r: r["byte_position"] or 0):
            found = {key: value for key, value in entry.items() if key != "byte_position"}
            position = entry["byte_position"]
            if position is not None and position >= data_end:
                newlines += handle.read(position - data_end).count(b"\n")
                data_end = position
                found["line_no"] = newlines + 1
            located.append(found)
    return located


def duckdb_counts(session, paths: list[str], options: str) -> dict[str, tuple[int, int]]:
    """(records parsed, records rejected) per file, from ONE count(*) scan of files that
    share read options: parallel across files, where one query per file is not."""
    scans, errors = "stg_exports__quick_scans", "stg_exports__quick_errors"
    listed = "[" + ", ".join(sql_text(path) for path in paths) + "]"
    try:
        parsed = dict(session.execute(
            f"select filename, count(*) from read_csv({listed}, {options}, filename = true, "
            f"rejects_scan = '{scans}', rejects_table = '{errors}') group by filename"
        ).fetchall())
        rejected = dict(session.execute(
            f"select scans.file_path, count(distinct errors.line) from {errors} as errors "
            f"join {scans} as scans using (scan_id, file_id) group by scans.file_path"
        ).fetchall())
    finally:
        session.execute(f"drop table if exists {errors}")
        session.execute(f"drop table if exists {scans}")
    return {path: (parsed.get(path, 0), rejected.get(path, 0)) for path in paths}


def quick_checks(session, planned: dict[str, str]) -> dict[str, tuple[int, int, dict]]:
    """The read check of every clean file without its costly parts, by read path: files
    DuckDB parses whole and whose Python count agrees. The others (missing here) get the
    full check. `planned` maps read paths to their read options.

    Python counts in other processes while DuckDB scans: on 2 cores the two overlap.
    """
    by_options: dict[str, list[str]] = {}
    for path, options in planned.items():
        by_options.setdefault(options, []).append(path)
    from agent_scoring.record_count import RecordCounter

    with RecordCounter(list(planned)) as counter:
        scanned: dict[str, tuple[int, int]] = {}
        for options, paths in by_options.items():
            with contextlib.suppress(duckdb.Error):  # the full check names the problem
                scanned.update(duckdb_counts(session, paths, options))
        records = counter.results()
    return {
        path: (records[path], parsed, {})
        for path, (parsed, rejected) in scanned.items()
        if rejected == 0 and records[path] is not None and parsed == records[path]
    }


def planned_read(path: Path, columns: dict, max_line_bytes: int) -> str | None:
    """The read options of a UTF-8 file read in place with every required column and no
    duplicated header name, or None: the only files quick_checks() takes."""
    if path.suffix.lower() == ".xlsx":
        return None
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    if detect_encoding(head) not in ("utf-8", "utf-8-sig"):
        return None
    header = header_of(codecs.getincrementaldecoder("utf-8-sig")(errors="replace").decode(head))
    required = [name for name, (_, needed) in columns.items() if needed]
    if not any(header) or len(set(header)) < len(header) or set(required) - set(header):
        return None
    return read_options(mapped_columns(header, columns), max_line_bytes)


def read_check(
    session, read_path: str, options: str, quick: dict
) -> tuple[int, int, dict[int, dict]]:
    """(Python's record count, DuckDB records parsed, DuckDB rejects) of one file."""
    if read_path in quick:
        return quick[read_path]
    parsed, rejects = probe(session, read_path, options)
    return count_records(read_path, rejects), parsed, rejects


def agreed(check: tuple[int, int, dict]) -> bool:
    records, parsed, rejects = check
    return records == parsed + len(rejects)


def checked_read(
    session, read_path: str, original: Path, out_dir: Path, options: str, quick: dict
):
    """Read-check a file; when DuckDB fails or disagrees with the csv module and the file's
    records end in both CRLF and LF, read-check a CRLF-normalized copy instead.

    Returns (path to read, read_from or None, check or None, why it cannot be read or None).
    """
    try:
        check = read_check(session, read_path, options, quick)
        failure = None
    except duckdb.Error as exc:
        check, failure = None, first_line(exc)
    if check is not None and agreed(check):
        return read_path, None, check, None
    fixed = normalize_newlines(Path(read_path), original, out_dir)
    if fixed is not None:
        try:
            fixed_check = read_check(session, str(fixed), options, quick)
        except duckdb.Error as exc:
            fixed_check, failure = None, first_line(exc)
        if fixed_check is not None and agreed(fixed_check):
            return str(fixed), "normalized", fixed_check, None
    if check is None:
        return read_path, None, None, failure
    records, parsed, rejects = check
    first_bad = locate_rejects(read_path, rejects)
    where = f" (first unparsable record on line {first_bad[0]['line_no']})" if first_bad else ""
    return read_path, None, check, (
        f"the csv module reads {records} records but DuckDB {parsed + len(rejects)}{where}: "
        "a quote that never closes?"
    )


def mapped_columns(header: list[str], columns: dict) -> list[str]:
    """The English column name of every header name: extra_<n> for a header the dictionary
    does not know, or whose column an earlier header (an alias) already gave."""
    known = {name: column for name, (column, _) in columns.items()}
    mapped: list[str] = []
    for i, name in enumerate(header):
        column = known.get(name)
        mapped.append(column if column and column not in mapped else f"extra_{i + 1}")
    return mapped


def inspect_file(
    session,
    path: Path,
    agent: str,
    columns: dict,
    transcode_dir: Path,
    max_line_bytes: int,
    quick: dict,
) -> tuple:
    """Describe one file; never raises for bad content, only records why it is unusable."""
    stat = path.stat()
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    encoding = detect_encoding(head)
    read_path = str(path)
    read_from = "original"
    header: list[str] = []
    problem_code = problem = None
    sheet_name, cell_notes = None, []
    if path.suffix.lower() == ".xlsx" and head:
        encoding, read_from = "xlsx", "xlsx"
        required = [name for name, (_, needed) in columns.items() if needed]
        from agent_scoring import xlsx

        try:
            sheet = xlsx.to_csv(path, copy_path(path, transcode_dir, "xlsx"), required)
        except xlsx.XlsxError as exc:
            problem_code, problem = "unreadable_xlsx", str(exc)
        else:
            read_path = str(copy_path(path, transcode_dir, "xlsx"))
            header, sheet_name = sheet.header, sheet.name
            cell_notes = [
                {"cell": cell, "header_name": name, "kind": kind}
                for cell, name, kind in sheet.notes
            ]
    elif not head:
        problem_code, problem = "empty_file", "file is empty (no header); export it again"
    elif encoding is None:
        problem_code = "undecodable"
        problem = "file is neither UTF-8, UTF-16 nor CP949; re-save it as CSV UTF-8"
    elif read_from == "original":
        try:
            if encoding not in ("utf-8", "utf-8-sig"):
                read_path = str(transcode(path, encoding, transcode_dir))
                read_from = "transcoded"
            text = codecs.getincrementaldecoder(encoding)(errors="replace").decode(head)
            header = header_of(text)
        except UnicodeDecodeError as exc:
            problem_code = "undecodable"
            problem = (
                f"file is not valid {encoding} at byte {exc.start}; re-save it as CSV UTF-8"
            )
    if problem is None and not any(header):
        problem_code = "empty_file"
        problem = "file has no header row (blank lines or only a BOM); export it again"
    known = {name: column for name, (column, _) in columns.items()}
    column_names = mapped_columns(header, columns)
    missing = [
        name for name, (_, required) in columns.items()
        if required and problem is None and name not in header
    ]
    unknown = [name for name in header if name not in known]
    duplicated = sorted({name for name in header if name and header.count(name) > 1})
    if problem is None and duplicated:
        problem_code = "duplicate_column"
        problem = (
            f'column "{duplicated[0]}" appears more than once in the header; '
            "keep one and export again"
        )

    options = read_options(column_names, max_line_bytes) if header else None
    csv_records = parsed_records = None
    rejects: list[dict] = []
    if problem is None and missing:
        csv_records = count_records(read_path, {})
    elif problem is None:
        read_path, fixed_from, check, failure = checked_read(
            session, read_path, path, transcode_dir, options, quick
        )
        read_from = fixed_from or read_from
        if check is not None:
            csv_records, parsed_records, found = check
            rejects = locate_rejects(read_path, found)
        if failure is not None and check is None:
            problem_code = "unreadable_csv"
            problem = f"DuckDB cannot read it as CSV ({failure}); re-save it as CSV UTF-8"
        elif failure is not None:
            problem_code = "ambiguous_records"
            problem = f"records are ambiguous: {failure} fix the quoting and export again"

    return (
        agent,
        str(path),
        path.name,
        encoding,
        read_path,
        read_from,
        stat.st_size,
        int(stat.st_mtime),
        f"{stat.st_size}:{stat.st_mtime_ns}",
        header,
        column_names,
        missing,
        unknown,
        options,
        csv_records,
        parsed_records,
        rejects,
        problem_code,
        problem,
        sheet_name,
        cell_notes,
    )


COLUMNS = (
    "agent, source_path, source_file, encoding, read_path, read_from, size_bytes, "
    "modified_epoch, fingerprint, header_names, column_names, missing_columns, "
    "unknown_columns, read_options, csv_records, parsed_records, csv_rejects, problem_code, "
    "problem, sheet_name, cell_notes"
)


def previous_inspections(session, this) -> dict[tuple[str, str], tuple]:
    """Rows of this model's last build, by (path, fingerprint): an unchanged file is not
    counted, probed or transcoded again (the expensive part of a build over many files)."""
    try:
        found = session.execute(f"select {COLUMNS} from {this}").fetchall()
    except duckdb.Error:
        return {}
    return {(row[1], row[8]): row for row in found}


def reusable(row: tuple | None, agent: str, columns: dict, max_line_bytes: int) -> bool:
    """A previous inspection still holds: same agent, same header mapping and read options
    (the export_columns seed or csv_max_line_bytes may have changed), and the file it reads
    (a transcoded or normalised copy for some) still exists."""
    if row is None or row[0] != agent or not Path(row[4]).exists():
        return False
    header, column_names, missing, options = row[9], row[10], row[11], row[13]
    mapped = mapped_columns(header, columns)
    required = [name for name, (_, needed) in columns.items() if needed and name not in header]
    expected_options = read_options(column_names, max_line_bytes) if header else None
    return (
        mapped == list(column_names)
        and (row[18] is not None or required == list(missing))
        and options == expected_options
    )


def agent_columns(dictionary: dict[str, str], required: list[str]) -> dict:
    """header name -> (English column or None, required) for one agent's files."""
    columns = {name: (column, name in required) for name, column in dictionary.items()}
    for name in required:
        columns.setdefault(name, (None, True))
    return columns


def files_by_agent(input_dir: Path, patterns: dict[str, list[str]]) -> dict[Path, str]:
    """Every file matching an agent's patterns, with its agent. A file two agents' patterns
    match belongs to the longer (more specific) pattern."""
    found: dict[Path, tuple[int, str]] = {}
    for agent, agent_patterns in sorted(patterns.items()):
        for pattern in agent_patterns:
            for path in input_dir.glob(pattern):
                if path.is_file() and len(pattern) > found.get(path, (-1, ""))[0]:
                    found[path] = (len(pattern), agent)
    return {path: agent for path, (_, agent) in sorted(found.items())}


def model(dbt, session):
    dbt.config(materialized="table")
    input_dir = Path(dbt.config.get("input_dir"))
    transcode_dir = Path(dbt.config.get("transcode_dir"))
    max_line_bytes = int(dbt.config.get("csv_max_line_bytes"))
    dictionary = dict(dbt.ref("export_columns").fetchall())
    registry = dbt.ref("agents").select("agent, file_patterns, required_columns").fetchall()
    columns_by_agent = {
        agent: agent_columns(dictionary, list(required)) for agent, _, required in registry
    }

    previous = previous_inspections(session, dbt.this)
    rows: list[tuple | None] = []
    to_inspect: list[tuple[int, Path, str, dict]] = []
    found = files_by_agent(input_dir, {agent: list(p) for agent, p, _ in registry})
    for path, agent in found.items():
        columns = columns_by_agent[agent]
        stat = path.stat()
        earlier = previous.get((str(path), f"{stat.st_size}:{stat.st_mtime_ns}"))
        if reusable(earlier, agent, columns, max_line_bytes):
            rows.append(earlier)
            continue
        to_inspect.append((len(rows), path, agent, columns))
        rows.append(None)

    planned = {
        str(path): options
        for _, path, _, columns in to_inspect
        if (options := planned_read(path, columns, max_line_bytes)) is not None
    }
    quick = quick_checks(session, planned) if planned else {}
    for position, path, agent, columns in to_inspect:
        rows[position] = inspect_file(
            session, path, agent, columns, transcode_dir, max_line_bytes, quick
        )

    session.execute(
        """
        create or replace temp table export_files_found (
            agent varchar,
            source_path varchar,
            source_file varchar,
            encoding varchar,
            read_path varchar,
            read_from varchar,
            size_bytes bigint,
            modified_epoch bigint,
            fingerprint varchar,
            header_names varchar[],
            column_names varchar[],
            missing_columns varchar[],
            unknown_columns varchar[],
            read_options varchar,
            csv_records bigint,
            parsed_records bigint,
            csv_rejects struct(
                line_no bigint,
                record_no bigint,
                error_type varchar,
                error_message varchar,
                csv_line varchar
            )[],
            problem_code varchar,
            problem varchar,
            sheet_name varchar,
            cell_notes struct(cell varchar, header_name varchar, kind varchar)[]
        )
        """
    )
    if rows:
        session.executemany(
            "insert into export_files_found values "
            f"({', '.join('?' for _ in COLUMNS.split(','))})",
            rows,
        )
    return session.table("export_files_found")
