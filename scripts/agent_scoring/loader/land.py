"""Bring every export in the input directory into the landing tables `raw.export_files` and
`raw.export_rows`, which dbt reads as the source `exports` (SCORING §0: nothing is dropped
silently).

An unchanged file (same path, size, modification time and read rules)
is not opened; a touched file whose content hash did not change is not read again; a changed
file replaces its rows and a deleted file's rows go. Files are landed in transactions of up
to 64 MB of files, so a load killed at any point leaves every file either as it was or as it
is now.

A plain UTF-8 CSV (by its first bytes) with its header in order, no line too wide and records
all ending alike is not landed: it is listed with `read_by = 'staging'` and a `read_spec`, and
stg_exports__rows reads it in place, tolerantly, and parses its Raw JSON in the same pass (its
bytes are read once by DuckDB). Staging then does for it what this module does for a file it
lands: numbers and locates its rejected records, or refuses it
(macros/direct_export_reads.sql).
Every other readable file (transcoded, xlsx, too wide, or with odd line ends)
is read by DuckDB (pinned dialect, every column VARCHAR by English name) straight into
`raw.export_rows`; records DuckDB cannot parse land as rows of their own with the error.
Every file's data records are also counted in Python, independently: by quote parity, in the
one pass of a worker process that also hashes it and finds lines too wide for DuckDB
(loader.bounds); by the csv module when DuckDB rejected a record or reads a copy.
A big file is read strictly while its scan still runs, and read again after it if that read
fails on a bad record.
A file on whose record count the two disagree (a quote that never closes) is refused as a
whole, `ambiguous_records`. A file whose records end in both CRLF and LF (DuckDB refuses
those) is read through a CRLF copy.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import hashlib
import json
import os
import tempfile
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from agent_scoring.loader.bounds import blank_wide_records
from agent_scoring.loader.inspect import (
    ENTRY_PROBLEMS,
    Inspection,
    agent_columns,
    files_by_agent,
    inspect_file,
    is_plain_utf8,
    normalize_newlines,
    odd_entry,
)
from agent_scoring.record_count import FileScanner, Scan, content_hash, has_wide_line

# Bump when the way files are read changes: every file is read again.
LOADER_VERSION = "2"
EXCERPT_CHARS = 300
# files are landed together in transactions of up to this many bytes (land_batch): a
# bigger batch saves no more commits worth having, and loses more to a kill or a retry
BATCH_BYTES = 64 << 20
# no automatic checkpoint at a commit while files are landed (deferred_checkpoints)
DEFERRED_CHECKPOINT = "16GB"

FILES_TABLE = """
create table if not exists raw.export_files (
    agent varchar not null,
    source_path varchar not null,
    source_file varchar not null primary key,
    size_bytes bigint not null,
    modified_ns bigint not null,
    content_hash varchar not null,
    read_key varchar not null,
    file_version varchar,
    encoding varchar,
    read_from varchar not null,
    sheet_name varchar,
    header_names varchar[] not null,
    column_names varchar[] not null,
    missing_columns varchar[] not null,
    unknown_columns varchar[] not null,
    record_count bigint,
    parsed_records bigint,
    problem_code varchar,
    problem varchar,
    cell_notes struct(cell varchar, header_name varchar, kind varchar)[] not null,
    loaded_at timestamp not null,
    run_settings struct(setting varchar, value varchar)[],
    read_by varchar,
    read_spec varchar
)
"""
ROWS_TABLE = """
create table if not exists raw.export_rows (
    agent varchar not null,
    source_file varchar not null,
    file_version varchar,
    record_no bigint,
    line_no bigint,
    extra_columns json,
    csv_error_type varchar,
    csv_error varchar,
    csv_line varchar
)
"""
# text DuckDB would store uncompressed (the multi-kB Raw JSON cells): with zstd a clean build of
# one 100k-row export is 6 times smaller, and its load faster (docs/builds.md)
ZSTD_COLUMNS = {"raw_json"}
# the column names, in order, from the table definition above (one list to keep in step)
FILE_COLUMNS = [line.split()[0] for line in FILES_TABLE.strip().splitlines()[1:-1]]


class InputDirError(Exception):
    """The input folder cannot be listed: nothing is loaded and nothing removed."""


class DictionaryError(Exception):
    """seeds/export_columns.csv maps a header twice: nothing is loaded and nothing removed."""


def export_dictionary(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """header name -> English column, from seeds/export_columns.csv; a header listed twice
    is refused (a second row would silently replace the first)."""
    dictionary: dict[str, str] = {}
    for header, column in pairs:
        if header in dictionary and dictionary[header] != column:
            raise DictionaryError(
                f'seeds/export_columns.csv maps the header "{header}" twice ({dictionary[header]}'
                f", {column}): keep one row; a header that one agent reads its own way goes in "
                "vars.agents.<agent>.headers; nothing was loaded or removed")
        dictionary[header] = column
    return dictionary


def check_input_dir(input_dir: Path) -> None:
    """Refuse a folder that is missing, not a folder or unreadable (a typo, an unmounted
    share): read as empty, it would remove every landed file."""
    where = f"input folder {input_dir}"
    hint = "(set vars.input_dir or AGENT_SCORING_INPUT_DIR); nothing was loaded or removed"
    if not input_dir.exists():
        raise InputDirError(f"{where} does not exist {hint}")
    if not input_dir.is_dir():
        raise InputDirError(f"{where} is not a folder {hint}")
    try:
        next(os.scandir(input_dir), None)
    except OSError as exc:
        raise InputDirError(f"{where} cannot be read ({exc.strerror}) {hint}") from exc


@dataclass(frozen=True)
class Registry:
    """What the loader needs of the agent registry and the export dictionary."""

    patterns: dict[str, list[str]]
    required: dict[str, list[str]]
    dictionary: dict[str, str]  # header name -> English column (seeds/export_columns.csv)
    max_line_bytes: int = 67108864
    max_fields: int = 1000
    # files of the input directory that other readers claim (the RAG evaluation's)
    other_patterns: tuple[str, ...] | list[str] = ()
    # what each agent declares of its export's shape (vars.agents.<agent>): its own header
    # map (header -> columns), the xlsx sheet of its rows, the xlsx sheet of its run settings
    headers: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    sheets: dict[str, str] = field(default_factory=dict)
    settings_sheets: dict[str, str] = field(default_factory=dict)
    # plain files DuckDB parses whole are read in place by staging (read_by = 'staging'),
    # not landed; off when every row must land (the Parquet copy for Spark)
    direct_reads: bool = False

    def read_key(self, agent: str) -> str:
        """What reading a file of `agent` depends on: a change reads its files again."""
        spec = [LOADER_VERSION, agent, self.required.get(agent, []),
                sorted(self.dictionary.items()), self.max_line_bytes, self.max_fields]
        own = [self.headers.get(agent), self.sheets.get(agent), self.settings_sheets.get(agent)]
        if any(own):  # an agent without declarations keeps the key it always had
            spec.append(own)
        return hashlib.md5(json.dumps(spec, ensure_ascii=False).encode()).hexdigest()

    def columns(self, agent: str) -> dict:
        return agent_columns(self.dictionary, self.required.get(agent, []),
                             self.headers.get(agent))


def sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_options(column_names: list[str], max_line_bytes: int, strict: bool = False) -> str:
    """The read_csv parameters of one file: pinned dialect, every column VARCHAR by name.

    DuckDB's sniffer can mistake a file with one broken quote for a one-column file, so
    nothing is auto-detected. A record DuckDB cannot parse is skipped and landed as a row of
    its own. store_rejects is not optional: with ignore_errors alone DuckDB 2.0 stops at the
    first bad record and drops every record after it without a word. `strict`: the first
    bad record fails the read instead (at once, where a record far too wide to store as a
    reject takes minutes).
    """
    columns = ", ".join(f"{sql_text(c)}: 'VARCHAR'" for c in column_names)
    rejects = ("" if strict else "ignore_errors = true, store_rejects = true, "
               "rejects_scan = 'load_reject_scans', rejects_table = 'load_rejects', ")
    return (
        "header = true, auto_detect = false, delim = ',', quote = '\"', escape = '\"', "
        f"max_line_size = {max_line_bytes}, {rejects}columns = {{{columns}}}"
    )


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


def extra_columns_json(column_names: list[str], keys: dict[str, str]) -> str:
    """The cells of columns outside the landing table, as {key: text} (the agent's name for
    the column, else its header); else null."""
    extras = [
        f"{sql_text(keys[column])}, {column}"
        for column in column_names
        if column.startswith("extra_")
    ]
    return f"json_object({', '.join(extras)})" if extras else "null::json"


def read_into_rows(
    con: duckdb.DuckDBPyConnection, agent: str, source_file: str, version: str,
    read_path: str, found: Inspection, max_line_bytes: int, strict: bool = False,
) -> tuple[int, dict[int, dict]]:
    """Insert every record DuckDB parses: (records parsed, rejects by DuckDB line).

    DuckDB's reject `line` counts the header, records and blank lines (not the lines inside
    quoted cells); `line_byte_position` is where the record starts. Runs in the caller's
    transaction. `strict`: a bad record raises duckdb.Error (read_options).
    """
    known = [c for c in found.column_names if not c.startswith("extra_")]
    con.execute("drop table if exists load_rejects")
    con.execute("drop table if exists load_reject_scans")
    columns = ("".join(f"{column}, " for column in known)
               + "".join(f"{read} as {alias}, " for alias, read in found.aliases)
               + f"{extra_columns_json(found.column_names, found.json_keys)} as extra_columns")
    options = read_options(found.column_names, max_line_bytes, strict)
    read = f"read_csv({sql_text(read_path)}, {options})"
    parsed = con.execute(
        "insert into raw.export_rows by name select ? as agent, ? as source_file, "
        f"? as file_version, row_number() over () as record_no, {columns} from {read}",
        [agent, source_file, version],
    ).fetchall()[0][0]
    if strict:
        return parsed, {}
    return parsed, reject_entries(con.execute(
        "select line, line_byte_position, error_type, error_message, csv_line "
        "from load_rejects order by line, line_byte_position, column_idx, error_message"
    ).fetchall())


def reject_entries(found: list[tuple]) -> dict[int, dict]:
    """DuckDB's rejects (line, line_byte_position, error_type, error_message, csv_line), in
    line order, by DuckDB line: one entry per record, its messages joined."""
    rejects: dict[int, dict] = {}
    for line, position, error_type, message, csv_line in found:
        entry = rejects.setdefault(int(line), {
            "line_no": None, "record_no": None, "byte_position": position,
            "error_type": error_type, "error_message": message,
            "csv_line": (csv_line or "").lstrip("\r\n")[:EXCERPT_CHARS],
        })
        if message and message not in entry["error_message"]:
            if len(entry["error_message"]) < EXCERPT_CHARS:
                entry["error_message"] += f"; {message}"
            elif not entry["error_message"].endswith("…"):
                entry["error_message"] += "; …"
    return rejects


def locate_read_rejects(read_path: str, found: str, parsed: int) -> str:
    """For stg_exports__rows, of a file it read in place (a DuckDB function, registered by
    agent_scoring.dbt_plugin), what land_file finds of a file it lands, as JSON: the csv
    module's record count, each reject of `found` (DuckDB's rejects as JSON, in line order)
    with its record and line number, parsed_before() of them, and ambiguous_problem() when
    the count is not `parsed` and the rejects."""
    rejects = reject_entries([
        (entry["line"], entry["line_byte_position"], entry["error_type"],
         entry["error_message"], entry["csv_line"]) for entry in json.loads(found)])
    records = count_records(read_path, rejects)
    located = locate_rejects(read_path, rejects)
    read = parsed + len(located)
    return json.dumps({
        "records": records, "rejects": located, "parsed_before": parsed_before(located),
        "problem": None if records == read else ambiguous_problem(records, read, located),
    }, ensure_ascii=False)


def ambiguous_problem(records: int, read: int, located: list[dict]) -> str:
    """Why a file whose records the csv module and DuckDB (`read`: parsed and rejected)
    count differently is refused."""
    where = f" (first unparsable record on line {located[0]['line_no']})" if located else ""
    return (f"records are ambiguous: the csv module reads {records} records but DuckDB "
            f"{read}{where}: a quote that never closes? fix the quoting and export again")


def parsed_before(rejects: list[dict]) -> list[int]:
    """After parsed_before[k] parsed records, k records had been skipped (1-based k), so the
    first k whose parsed_before reaches a row's parsed number tells how many came before it
    (the number the row gets among all the file's records: land_rejects)."""
    skipped = sorted(r["record_no"] for r in rejects if r["record_no"] is not None)
    return [no - k for k, no in enumerate(skipped, start=1)]


def land_rejects(
    con: duckdb.DuckDBPyConnection, agent: str, source_file: str, version: str,
    rejects: list[dict],
) -> None:
    """Number the parsed rows in the file (the rejects before them count too: parsed_before)
    and land the rejects as rows of their own."""
    before = parsed_before(rejects)
    if before:
        con.execute(
            "update raw.export_rows set record_no = record_no - 1 + coalesce(list_position("
            f"list_transform({before}::bigint[], lambda b: b >= record_no), true), "
            f"{len(before) + 1}) where source_file = ?",
            [source_file],
        )
    insert_rejects(con, agent, source_file, version, rejects)


def insert_rejects(
    con: duckdb.DuckDBPyConnection, agent: str, source_file: str, version: str,
    rejects: list[dict],
) -> None:
    if rejects:
        con.executemany(
            "insert into raw.export_rows (agent, source_file, file_version, record_no, "
            "line_no, csv_error_type, csv_error, csv_line) values (?, ?, ?, ?, ?, ?, ?, ?)",
            [[agent, source_file, version, r["record_no"], r["line_no"], r["error_type"],
              r["error_message"], r["csv_line"]] for r in rejects],
        )


def direct_read(found: Inspection, scan: Scan, max_fields: int) -> bool:
    """Whether staging reads the file in place: a UTF-8 CSV with its header in order and
    data records, no line too wide (the header neither), records all ending alike."""
    return (found.problem is None and not found.missing and found.read_from == "original"
            and found.encoding in ("utf-8", "utf-8-sig") and not scan.wide
            and not scan.odd_newlines and len(found.column_names) <= max_fields
            and bool(scan.records))


def read_spec_json(found: Inspection) -> str:
    """How staging reads a file in place (macro direct_export_reads): the name each header
    position is read under, the extra_columns key of each extra_<n>, and the copies."""
    return json.dumps({"columns": found.column_names, "json_keys": found.json_keys,
                       "aliases": [list(alias) for alias in found.aliases]},
                      ensure_ascii=False, sort_keys=True)


@dataclass
class ReadCheck:
    """One read of a file: Python's record count, DuckDB's parsed records and rejects."""

    records: int
    parsed: int
    rejects: dict[int, dict]

    @property
    def agreed(self) -> bool:
        return self.records == self.parsed + len(self.rejects)


def checked_read(
    con: duckdb.DuckDBPyConnection, agent: str, source_file: str, version: str,
    read_path: str, found: Inspection, max_line_bytes: int, quick_count: int | None,
) -> ReadCheck:
    """Read a file into raw.export_rows and count its records in Python as well. The quick
    count (quote parity) stands when DuckDB rejected nothing; else the csv module counts and
    numbers the rejects. Raises duckdb.Error when DuckDB cannot read the file."""
    parsed, rejects = read_into_rows(con, agent, source_file, version, read_path, found,
                                     max_line_bytes)
    if not rejects and quick_count == parsed:  # counted in a worker process
        return ReadCheck(parsed, parsed, rejects)
    return ReadCheck(count_records(read_path, rejects), parsed, rejects)


def land_file(
    con: duckdb.DuckDBPyConnection, path: Path, source_file: str, agent: str, version: str,
    found: Inspection,
    registry: Registry, copy_dir: Path, scan: Future[Scan],
    restart: Callable[[], None], big: bool = False,
) -> tuple[int | None, int | None]:
    """Read one inspected file into raw.export_rows (in the caller's transaction), or set
    why it cannot be read on `found`: (records counted, records parsed). `scan` is the scan
    of the file as found; `restart` undoes a failed read: a DuckDB error aborts the
    transaction, so it starts it again. `big`: Pending.big."""
    if found.problem is not None:
        return None, None
    if found.missing:
        return count_records(found.read_path, {}), None
    if big and found.read_path == str(path) and not scan.done():
        # read strictly while its scan runs (2 s of 376 MB): it stands when it read every
        # record the scan counts
        try:
            parsed, _ = read_into_rows(con, agent, source_file, version, found.read_path, found,
                                       registry.max_line_bytes, strict=True)
            if parsed == scan.result().records:
                return parsed, parsed
        except duckdb.Error:
            pass
        restart()
    # a transcoded or xlsx file: DuckDB reads a copy, counted by the csv module
    quick_count = scan.result().records if found.read_path == str(path) else None
    wide: list[dict] = []
    if (scan.result().wide if found.read_path == str(path)
            else has_wide_line(found.read_path, registry.max_fields)):
        blanked, wide = blank_wide_records(found.read_path, path, registry.max_fields,
                                           len(found.column_names), copy_dir)
        if wide:
            found.read_path, quick_count = blanked, None

    def landed(read_path: str, check: ReadCheck) -> tuple[int, int]:
        land_rejects(con, agent, source_file, version, locate_rejects(read_path, check.rejects))
        if wide:  # each placeholder row becomes the rejected record it stands for
            con.execute("delete from raw.export_rows where source_file = ? "
                        "and list_contains(?, record_no)",
                        [source_file, [entry["record_no"] for entry in wide]])
            insert_rejects(con, agent, source_file, version, wide)
        return check.records, check.parsed - len(wide)

    try:
        check = checked_read(con, agent, source_file, version, found.read_path, found,
                             registry.max_line_bytes, quick_count)
        failure = None
    except duckdb.Error as exc:
        check, failure = None, first_line(exc)
    if check is not None and check.agreed:
        return landed(found.read_path, check)
    restart()
    fixed = normalize_newlines(Path(found.read_path), path, copy_dir)
    if fixed is not None:
        try:
            fixed_check = checked_read(con, agent, source_file, version, str(fixed), found,
                                       registry.max_line_bytes, None)
        except duckdb.Error as exc:
            fixed_check, failure = None, first_line(exc)
        if fixed_check is not None and fixed_check.agreed:
            found.read_path, found.read_from = str(fixed), "normalized"
            return landed(str(fixed), fixed_check)
        restart()
    if check is None:
        found.problem_code = "unreadable_csv"
        found.problem = f"DuckDB cannot read it as CSV ({failure}); re-save it as CSV UTF-8"
        return None, None
    found.problem_code = "ambiguous_records"
    found.problem = ambiguous_problem(check.records, check.parsed + len(check.rejects),
                                      locate_rejects(found.read_path, check.rejects))
    return check.records, check.parsed


def create_tables(con: duckdb.DuckDBPyConnection, text_columns: list[str]) -> None:
    """The landing tables, with a text column for every English column of the dictionary."""
    con.execute("create schema if not exists raw")
    con.execute(FILES_TABLE)
    con.execute(ROWS_TABLE)
    # a warehouse landed before file_version existed (its files and rows: null, one version)
    for table in ("export_files", "export_rows"):
        con.execute(f"alter table raw.{table} add column if not exists file_version varchar")
    con.execute("alter table raw.export_files add column if not exists run_settings "
                "struct(setting varchar, value varchar)[]")
    for column in ("read_by", "read_spec"):
        con.execute(f"alter table raw.export_files add column if not exists {column} varchar")
    for column in text_columns:
        compression = " using compression zstd" if column in ZSTD_COLUMNS else ""
        con.execute("alter table raw.export_rows add column if not exists "
                    f"{column} varchar{compression}")


def stored_files(con: duckdb.DuckDBPyConnection) -> dict[str, tuple]:
    """source_path -> (size, modified_ns, content_hash, read_key, problem_code, source_file)
    of the last load."""
    found = con.execute("select source_path, size_bytes, modified_ns, content_hash, read_key, "
                        "problem_code, source_file from raw.export_files").fetchall()
    return {row[0]: row[1:] for row in found}


@dataclass
class Pending:
    """A file to land, as load_exports found it; `replaces`: the name it was landed under."""

    path: Path
    source_file: str
    agent: str
    scan: Future[Scan]
    file_row: dict
    replaces: str | None

    @property
    def big(self) -> bool:
        """64 MB or more: landed alone (batches), checkpointed at its commit, and read while
        its scan still runs (land_file)."""
        return self.file_row["size_bytes"] >= BATCH_BYTES


class OwnTransaction(Exception):
    """A read failed inside a shared transaction: its retry needs a transaction of its own."""


def forget(con: duckdb.DuckDBPyConnection, source_file: str | None) -> None:
    """Delete a landed file's rows (a scan of every landed row: only for one landed before)."""
    if source_file:
        con.execute("delete from raw.export_rows where source_file = ?", [source_file])
        con.execute("delete from raw.export_files where source_file = ?", [source_file])


def insert_file_rows(con: duckdb.DuckDBPyConnection, rows: list[dict]) -> None:
    """Files' rows of raw.export_files (each holds every column), in one statement: one a
    file took 1.3 ms, a third of that for six."""
    values = f"({', '.join('?' for _ in FILE_COLUMNS)})"
    con.execute(f"insert into raw.export_files ({', '.join(FILE_COLUMNS)}) "
                f"values {', '.join([values] * len(rows))}",
                [row[column] for row in rows for column in FILE_COLUMNS])


def land_one(
    con: duckdb.DuckDBPyConnection, pending: Pending, registry: Registry, copy_dir: Path,
    restart: Callable[[], None],
) -> Inspection:
    """Replace one file's landed rows, in the caller's transaction, and fill in its
    raw.export_files row (pending.file_row), which the caller inserts; `restart` undoes a
    failed read."""
    agent = pending.agent
    forget(con, pending.replaces)
    found = inspect_file(pending.path, registry.columns(agent), copy_dir,
                         landed=set(registry.dictionary.values()),
                         sheet=registry.sheets.get(agent),
                         settings_sheet=registry.settings_sheets.get(agent))
    # a new id for every landing of a file: what its rows' fingerprints start from
    version = uuid.uuid4().hex
    read_by, read_spec = "loader", None
    if registry.direct_reads and direct_read(found, pending.scan.result(), registry.max_fields):
        # as the scan counts them: staging checks that against what DuckDB parses
        records = parsed = pending.scan.result().records
        read_by, read_spec = "staging", read_spec_json(found)
    else:
        records, parsed = land_file(con, pending.path, pending.source_file, pending.agent,
                                    version, found, registry, copy_dir, pending.scan, restart,
                                    pending.big)
    file_row = pending.file_row
    file_row.update(
        file_version=version,
        content_hash=pending.scan.result().content_hash, encoding=found.encoding,
        read_from=found.read_from, sheet_name=found.sheet_name,
        header_names=found.header, column_names=found.column_names,
        missing_columns=found.missing, unknown_columns=found.unknown,
        record_count=records, parsed_records=parsed, problem_code=found.problem_code,
        problem=found.problem, cell_notes=found.cell_notes,
        loaded_at=dt.datetime.now(dt.timezone.utc).replace(tzinfo=None),
        run_settings=None if found.settings is None else [
            {"setting": name, "value": value} for name, value in found.settings.items()],
        read_by=read_by, read_spec=read_spec,
    )
    return found


def land_alone(
    con: duckdb.DuckDBPyConnection, pending: Pending, registry: Registry, copy_dir: Path
) -> Inspection:
    """One file in a transaction of its own: a failed read is undone by starting it again."""

    def restart() -> None:
        con.execute("rollback")
        con.execute("begin")
        forget(con, pending.replaces)

    con.execute("begin")
    try:
        found = land_one(con, pending, registry, copy_dir, restart)
        insert_file_rows(con, [pending.file_row])
    except BaseException:
        con.execute("rollback")
        raise
    con.execute("commit")
    return found


def land_batch(
    con: duckdb.DuckDBPyConnection, batch: list[Pending], registry: Registry, copy_dir: Path
) -> list[tuple[Inspection, float]]:
    """Files in one transaction: (inspection, seconds) of each. A commit syncs the WAL (about
    10 ms here: most of the load of a small export). A read that fails rolls the batch
    back, and each of its files is landed alone."""

    def restart() -> None:
        raise OwnTransaction

    def timed(land: Callable[..., Inspection], *args) -> tuple[Inspection, float]:
        started = time.perf_counter()
        return land(*args), time.perf_counter() - started

    if len(batch) == 1:  # no batch to lose: a failed read is retried at once
        with checkpoint_at_commit(con, batch[0].big):
            return [timed(land_alone, con, batch[0], registry, copy_dir)]
    con.execute("begin")
    try:
        landed = [timed(land_one, con, pending, registry, copy_dir, restart)
                  for pending in batch]
        insert_file_rows(con, [pending.file_row for pending in batch])
    except OwnTransaction:
        con.execute("rollback")
        return [timed(land_alone, con, pending, registry, copy_dir) for pending in batch]
    except BaseException:
        con.execute("rollback")
        raise
    con.execute("commit")
    return landed


def batches(pending: Iterator[Pending], batch_bytes: int) -> Iterator[list[Pending]]:
    """Consecutive files of up to `batch_bytes` in all (a bigger file alone)."""
    batch: list[Pending] = []
    size = 0
    for item in pending:
        if batch and size + item.file_row["size_bytes"] > batch_bytes:
            yield batch
            batch, size = [], 0
        batch.append(item)
        size += item.file_row["size_bytes"]
    if batch:
        yield batch


def land_odd_entry(
    con: duckdb.DuckDBPyConnection, path: Path, source_file: str, agent: str, read_key: str,
    problem: tuple[str, str], replaces: str | None,
) -> None:
    """List an entry that cannot be opened as an export (raw.export_files, no rows)."""
    info = path.lstat()
    row = dict.fromkeys(FILE_COLUMNS) | {
        "agent": agent, "source_path": str(path), "source_file": source_file,
        "size_bytes": info.st_size, "modified_ns": info.st_mtime_ns, "content_hash": "",
        "read_key": read_key, "read_from": "original", "header_names": [],
        "column_names": [], "missing_columns": [], "unknown_columns": [], "cell_notes": [],
        "problem_code": problem[0], "problem": problem[1],
        "loaded_at": dt.datetime.now(dt.timezone.utc).replace(tzinfo=None),
    }
    con.execute("begin")
    forget(con, replaces)
    insert_file_rows(con, [row])
    con.execute("commit")


def source_names(
    found: dict[Path, str],
) -> tuple[dict[Path, str], dict[Path, tuple[str, str]]]:
    """Each entry's source_file: its name in NFC (macOS writes NFD; a name typed or pasted
    is NFC), so both forms name the same run. Of two entries whose names are the same in
    NFC, the NFC one owns the name; the other keeps its own name and is refused."""
    names: dict[Path, str] = {}
    twins: dict[Path, tuple[str, str]] = {}
    owner: dict[str, Path] = {}
    for path in sorted(found, key=lambda p: (not unicodedata.is_normalized("NFC", p.name), p)):
        name = unicodedata.normalize("NFC", path.name)
        if name in owner:
            names[path] = path.name
            twins[path] = ("duplicate_name", f"the same name as {owner[name]} in another "
                           "Unicode form (macOS writes names in NFD); keep one of the two")
        else:
            names[path], owner[name] = name, path
    return names, twins


# the agent of an entry no reader claims (not a registry name: those are snake_case)
UNCLAIMED = "(unclaimed)"
UNCLAIMED_PROBLEM = ("unclaimed", "no agent's file patterns (vars.agents) nor the RAG files "
                     "(vars.rag_files) match its name, so nothing reads it")


# the input folder's own README (docs/test-result/README.md) is no export
FOLDER_README = "README.md"


def unclaimed(input_dir: Path, claimed: list[Path]) -> list[Path]:
    """Entries of the input directory nobody reads (hidden ones and its README aside): said,
    never silent."""
    taken = set(claimed)
    return sorted(path for path in input_dir.iterdir()
                  if path not in taken and not path.name.startswith(".")
                  and path.name != FOLDER_README)


def hash_only(path: Path) -> Future[Scan]:
    """A file the scan cannot count (not plain UTF-8): its hash only (land_file scans the
    UTF-8 copy it reads)."""
    done: Future[Scan] = Future()
    done.set_result(Scan(None, content_hash(path)))
    return done


@contextlib.contextmanager
def deferred_checkpoints(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """One checkpoint after the load, not one per file's commit (each rewrote the table)."""
    con.execute(f"set checkpoint_threshold = '{DEFERRED_CHECKPOINT}'")
    try:
        yield
    finally:
        con.execute("reset checkpoint_threshold")


@contextlib.contextmanager
def checkpoint_at_commit(con: duckdb.DuckDBPyConnection, wanted: bool) -> Iterator[None]:
    """A big file's commit checkpoints after all (measured on a 376 MB export: 2 s less than
    a checkpoint after the load; for 900 files of 75 kB each, every commit checkpointing
    cost 0.7 s more)."""
    if not wanted:
        yield
        return
    con.execute("set checkpoint_threshold = '0b'")
    try:
        yield
    finally:
        con.execute(f"set checkpoint_threshold = '{DEFERRED_CHECKPOINT}'")


def claimed_entries(input_dir: Path, registry: Registry) -> list[Path]:
    """The entries of `input_dir` an agent's or another reader's patterns claim."""
    return [*files_by_agent(input_dir, registry.patterns),
            *(path for pattern in registry.other_patterns for path in input_dir.glob(pattern))]


def choose_input_dir(
    input_dir: Path, samples_dir: Path | None, registry: Registry, log: Callable[[str], None]
) -> Path:
    """The input folder, or the bundled samples while it holds no file any reader claims
    (the RAG document loader applies the same rule)."""
    check_input_dir(input_dir)
    if samples_dir is None or not samples_dir.is_dir() or claimed_entries(input_dir, registry):
        return input_dir
    log(f"note: {input_dir} holds no export yet: scoring the bundled samples in {samples_dir} "
        f"(they leave the marts as soon as {input_dir} holds one)")
    return samples_dir


def load_exports(
    con: duckdb.DuckDBPyConnection,
    input_dir: Path,
    registry: Registry,
    log: Callable[[str], None] = print,
    samples_dir: Path | None = None,
) -> list[dict]:
    """Land every export of `input_dir` (or of `samples_dir` while it holds none); one entry
    per file found or gone: source_file, action (kept, rehashed, loaded, refused, removed),
    records, seconds."""
    input_dir = choose_input_dir(input_dir, samples_dir, registry, log)
    create_tables(con, sorted(set(registry.dictionary.values())))
    found = files_by_agent(input_dir, registry.patterns)
    stored = stored_files(con)
    # every other entry of the folder is listed too, refused as unclaimed
    for path in unclaimed(input_dir, claimed_entries(input_dir, registry)):
        found[path] = UNCLAIMED
    # an entry named like a RAG file that is no file: DuckDB's read_blob passes it by
    # (base_rag__documents), so it is refused here, never silently
    odd_documents = {path for pattern in registry.other_patterns
                     for path in input_dir.glob(pattern) if odd_entry(path)}
    found.update(dict.fromkeys(odd_documents, UNCLAIMED))
    names, twins = source_names(found)
    actions: list[dict] = []

    def done(name: str, action: str, records: int | None = None, seconds: float = 0.0):
        actions.append({"source_file": name, "action": action, "records": records,
                        "seconds": seconds})

    gone = sorted(set(stored) - {str(path) for path in found})
    # a file landed under another name (an NFD twin that lost its name) is landed afresh
    renamed = [str(path) for path in found
               if str(path) in stored and stored[str(path)][5] != names[path]]
    for source_path in renamed:
        con.execute("delete from raw.export_rows where source_file = ?", [stored[source_path][5]])
        con.execute("delete from raw.export_files where source_path = ?", [source_path])
        del stored[source_path]
    if gone:
        con.execute("begin")
        for source_path in gone:
            name = stored[source_path][5]
            con.execute("delete from raw.export_rows where source_file = ?", [name])
            con.execute("delete from raw.export_files where source_path = ?", [source_path])
            done(name, "removed")
        con.execute("commit")

    to_load: list[tuple[Path, str, str]] = []
    for path, agent in found.items():
        read_key, earlier = registry.read_key(agent), stored.get(str(path))
        problem = (UNCLAIMED_PROBLEM if agent == UNCLAIMED and path not in odd_documents
                   else None) or twins.get(path) or odd_entry(path)
        if problem is not None:  # looked at again every load: a fix leaves mtime alone
            land_odd_entry(con, path, names[path], agent, read_key, problem,
                           replaces=earlier and earlier[5])
            done(names[path], "refused")
            log(f"{'unclaimed' if agent == UNCLAIMED else 'refused'} {path}: {problem[1]}")
            continue
        stat = path.stat()
        if earlier and earlier[4] not in ENTRY_PROBLEMS and (
                earlier[0], earlier[1], earlier[3]) == (stat.st_size, stat.st_mtime_ns, read_key):
            done(names[path], "kept")
        else:
            to_load.append((path, agent, read_key))

    quick = [str(path) for path, _, _ in to_load if is_plain_utf8(path)]

    def to_land(scanner: FileScanner) -> Iterator[Pending]:
        for path, agent, read_key in to_load:
            started = time.perf_counter()
            scan = scanner.futures[str(path)] if str(path) in quick else hash_only(path)
            stat = path.stat()
            earlier = stored.get(str(path))
            # a file seen before may only have been touched: its hash decides before reading
            if earlier and (earlier[2], earlier[3]) == (scan.result().content_hash, read_key):
                con.execute("update raw.export_files set size_bytes = ?, modified_ns = ? "
                            "where source_path = ?",
                            [stat.st_size, stat.st_mtime_ns, str(path)])
                done(names[path], "rehashed", seconds=time.perf_counter() - started)
                continue
            file_row = {"agent": agent, "source_path": str(path), "source_file": names[path],
                        "size_bytes": stat.st_size, "modified_ns": stat.st_mtime_ns,
                        "read_key": read_key}
            yield Pending(path, names[path], agent, scan, file_row,
                          replaces=earlier and earlier[5])

    with tempfile.TemporaryDirectory(prefix="agent-scoring-load-") as copies, \
            FileScanner(quick, registry.max_fields) as scanner, deferred_checkpoints(con):
        for batch in batches(to_land(scanner), BATCH_BYTES):
            for pending, (inspection, seconds) in zip(
                    batch, land_batch(con, batch, registry, Path(copies)), strict=True):
                action = "refused" if inspection.problem else "loaded"
                records = pending.file_row["record_count"]
                done(pending.source_file, action, records, seconds)
                log(f"{action} {pending.path}: {inspection.problem or f'{records} records'} "
                    f"({seconds:.1f} s)")
    for agent in sorted(registry.patterns):
        readable = con.execute("select count(*) from raw.export_files where agent = ? "
                               "and problem is null", [agent]).fetchall()[0][0]
        if not readable:
            log(f"note: no readable {agent} file ({', '.join(registry.patterns[agent])}) in "
                f"{input_dir}; its rows in the marts will be empty")
    return actions
