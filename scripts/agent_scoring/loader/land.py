"""List every export in the input directory, with how staging reads it: the table the model
export_loads returns; stg_exports__rows reads each export in place, tolerantly, and parses
its Raw JSON in the same pass (macros/direct_export_reads.sql). Nothing here writes a row of
an export, nor any table but its own temporary one: dbt swaps the listing in whole.

An unchanged file (same path, size, modification time and read rules) is not opened; a
touched file whose content hash did not change is not read again.

DuckDB reads a UTF-8 CSV whose records all end alike with no line too wide. For any other
readable file it reads a UTF-8 copy kept beside the warehouse (copies_dir): transcoded
(UTF-16, CP949), an xlsx sheet written out, line ends made alike, or each record too wide
for DuckDB blanked (loader.bounds; staging rejects it as that record).
Every file's data records are also counted in Python, independently (SCORING §0: nothing is
dropped silently): by quote parity, in the one pass of a worker process that also hashes it
and finds lines too wide for DuckDB. stg_exports__rows checks DuckDB's parsed and rejected
records against that count; on a file where they disagree (a quote that never closes) it
refuses the file whole, `ambiguous_records`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import tempfile
import time
import unicodedata
import uuid
from collections.abc import Callable
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
from agent_scoring.record_count import FileScanner, Scan, content_hash, scan_file

# Bump when the way files are read changes: every file is read again.
LOADER_VERSION = "3"
# the new listing, a temporary table of the loader's connection (export_loads returns it)
LISTING = "export_listing"
LISTING_TABLE = f"""
create or replace temp table {LISTING} (
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
    problem_code varchar,
    problem varchar,
    cell_notes struct(cell varchar, header_name varchar, kind varchar)[] not null,
    loaded_at timestamp not null,
    run_settings struct(setting varchar, value varchar)[],
    read_by varchar,
    read_spec varchar,
    read_path varchar,
    wide_rejects varchar,
    action varchar not null
)
"""
# the column names, in order, from the table definition above (one list to keep in step)
FILE_COLUMNS = [line.split()[0] for line in LISTING_TABLE.strip().splitlines()[1:-1]]


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
    excerpt_chars: int = 300  # of a too-wide record's line (vars.csv_excerpt_chars)
    # files of the input directory that other readers claim (the RAG evaluation's)
    other_patterns: tuple[str, ...] | list[str] = ()
    # what each agent declares of its export's shape (vars.agents.<agent>): its own header
    # map (header -> columns), the xlsx sheet of its rows, the xlsx sheet of its run settings
    headers: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    sheets: dict[str, str] = field(default_factory=dict)
    settings_sheets: dict[str, str] = field(default_factory=dict)

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


def read_spec_json(found: Inspection) -> str:
    """How staging reads a file in place (macro direct_export_reads): the name each header
    position is read under, the extra_columns key of each extra_<n>, and the copies."""
    return json.dumps({"columns": found.column_names, "json_keys": found.json_keys,
                       "aliases": [list(alias) for alias in found.aliases]},
                      ensure_ascii=False, sort_keys=True)


def previous_listing(con: duckdb.DuckDBPyConnection, schema: str, table: str) -> str | None:
    """The last load's listing (`schema`.`table` of the current database), or None when
    there is none: a first build, or a warehouse of an earlier version (whose files are all
    read again)."""
    found = {row[0] for row in con.execute(
        "select column_name from duckdb_columns() where database_name = current_database() "
        "and schema_name = ? and table_name = ?", [schema, table]).fetchall()}
    return f'"{schema}"."{table}"' if set(FILE_COLUMNS) <= found else None


def stored_files(con: duckdb.DuckDBPyConnection, previous: str | None) -> dict[str, tuple]:
    """source_path -> (size, modified_ns, content_hash, read_key, problem_code, source_file,
    read_path) of the last load."""
    if previous is None:
        return {}
    found = con.execute("select source_path, size_bytes, modified_ns, content_hash, read_key, "
                        f"problem_code, source_file, read_path from {previous}").fetchall()
    return {row[0]: row[1:] for row in found}


def read_file(path: Path, agent: str, registry: Registry, copy_dir: Path,
              scan: Future[Scan]) -> dict:
    """How staging reads one file, as columns of its listing row: the file itself
    or a UTF-8 copy of it (transcoded, xlsx, line ends made alike, records too wide
    blanked), its header, its record count; or why it cannot be read."""
    found = inspect_file(path, registry.columns(agent), copy_dir,
                         landed=set(registry.dictionary.values()),
                         sheet=registry.sheets.get(agent),
                         settings_sheet=registry.settings_sheets.get(agent))
    records, wide, read_by = None, [], None
    if found.problem is None:
        # the file as found was scanned in the background; a copy is scanned here
        counted = (scan.result() if found.read_path == str(path)
                   else scan_file(found.read_path, registry.max_fields))
        records = counted.records
        if counted.odd_newlines and not found.missing:
            fixed = normalize_newlines(Path(found.read_path), path, copy_dir)
            if fixed is not None:
                found.read_path, found.read_from = str(fixed), "normalized"
        if (counted.wide or len(found.column_names) > registry.max_fields) and not found.missing:
            found.read_path, wide = blank_wide_records(
                found.read_path, path, registry.max_fields, len(found.column_names), copy_dir,
                registry.excerpt_chars)
        if not found.missing and records:
            read_by = "staging"
    return {
        "content_hash": scan.result().content_hash, "encoding": found.encoding,
        "read_from": found.read_from, "sheet_name": found.sheet_name,
        "header_names": found.header, "column_names": found.column_names,
        "missing_columns": found.missing, "unknown_columns": found.unknown,
        "record_count": records,
        "problem_code": found.problem_code, "problem": found.problem,
        "cell_notes": found.cell_notes,
        "run_settings": None if found.settings is None else [
            {"setting": name, "value": value} for name, value in found.settings.items()],
        "read_by": read_by, "read_spec": read_spec_json(found) if read_by else None,
        "read_path": found.read_path if read_by else None,
        "wide_rejects": json.dumps(wide, ensure_ascii=False) if wide else None,
    }


def file_row(path: Path, source_file: str, agent: str, read_key: str, **columns) -> dict:
    """A listing row: what every file has, and `columns`."""
    info = path.lstat()
    return dict.fromkeys(FILE_COLUMNS) | {
        "agent": agent, "source_path": str(path), "source_file": source_file,
        "size_bytes": info.st_size, "modified_ns": info.st_mtime_ns, "content_hash": "",
        "read_key": read_key, "read_from": "original", "header_names": [],
        "column_names": [], "missing_columns": [], "unknown_columns": [], "cell_notes": [],
        "loaded_at": dt.datetime.now(dt.timezone.utc).replace(tzinfo=None),
        # a new id for every read of a file: what its rows' fingerprints start from
        "file_version": uuid.uuid4().hex,
    } | columns


def insert_file_rows(con: duckdb.DuckDBPyConnection, rows: list[dict]) -> None:
    """Files' rows of the listing, in one statement."""
    values = f"({', '.join('?' for _ in FILE_COLUMNS)})"
    con.execute(f"insert into {LISTING} ({', '.join(FILE_COLUMNS)}) "
                f"values {', '.join([values] * len(rows))}",
                [row[column] for row in rows for column in FILE_COLUMNS])


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
    """A file the scan cannot count (not plain UTF-8): its hash only (read_file scans the
    UTF-8 copy staging reads)."""
    done: Future[Scan] = Future()
    done.set_result(Scan(None, content_hash(path)))
    return done


def copies_dir(con: duckdb.DuckDBPyConnection) -> Path:
    """Where the UTF-8 copies staging reads are kept: beside the warehouse, never in the
    input folder."""
    database = con.execute("select path from duckdb_databases() "
                           "where database_name = current_database()").fetchall()[0][0]
    if not database:
        return Path(tempfile.gettempdir()) / "agent-scoring-copies"
    return Path(database).with_suffix(".copies")


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
    previous: str | None = None,
    log: Callable[[str], None] = print,
    samples_dir: Path | None = None,
) -> list[dict]:
    """List every export of `input_dir` (or of `samples_dir` while it holds none) in the
    temporary table LISTING, with how staging reads it and what this load did with it
    (action: kept, rehashed, loaded, refused), from the `previous` listing; one entry per
    file found or gone: source_file, action (those, or removed), records, seconds. It writes
    no other table: a load killed at any point leaves the stored listing as it was."""
    input_dir = choose_input_dir(input_dir, samples_dir, registry, log)
    copy_dir = copies_dir(con)
    found = files_by_agent(input_dir, registry.patterns)
    stored = stored_files(con, previous)
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
    rows: list[dict] = []
    # paths whose stored row goes: gone, renamed (an NFD twin that lost its name), re-read
    replaced = sorted(set(stored) - {str(path) for path in found})

    def done(name: str, action: str, records: int | None = None, seconds: float = 0.0):
        actions.append({"source_file": name, "action": action, "records": records,
                        "seconds": seconds})

    for source_path in replaced:
        done(stored[source_path][5], "removed")
    to_read: list[tuple[Path, str, str]] = []
    for path, agent in found.items():
        read_key, earlier = registry.read_key(agent), stored.get(str(path))
        if earlier and earlier[5] != names[path]:
            earlier = None
        problem = (UNCLAIMED_PROBLEM if agent == UNCLAIMED and path not in odd_documents
                   else None) or twins.get(path) or odd_entry(path)
        if problem is not None:  # looked at again every load: a fix leaves mtime alone
            rows.append(file_row(path, names[path], agent, read_key, action="refused",
                                 problem_code=problem[0], problem=problem[1]))
            done(names[path], "refused")
            log(f"{'unclaimed' if agent == UNCLAIMED else 'refused'} {path}: {problem[1]}")
            continue
        stat = path.stat()
        # a copy gone (a warehouse restored without its copies) is made again
        if earlier and earlier[4] not in ENTRY_PROBLEMS and (
                earlier[0], earlier[1], earlier[3]) == (stat.st_size, stat.st_mtime_ns, read_key
                ) and (earlier[6] is None or Path(earlier[6]).exists()):
            done(names[path], "kept")
        else:
            to_read.append((path, agent, read_key))
    replaced += [str(row["source_path"]) for row in rows if str(row["source_path"]) in stored]

    quick = [str(path) for path, _, _ in to_read if is_plain_utf8(path)]
    touched: list[tuple[int, int, str]] = []
    with FileScanner(quick, registry.max_fields) as scanner:
        for path, agent, read_key in to_read:
            started = time.perf_counter()
            scan = scanner.futures[str(path)] if str(path) in quick else hash_only(path)
            stat = path.stat()
            earlier = stored.get(str(path))
            # a file seen before may only have been touched: its hash decides before reading
            if earlier and earlier[5] == names[path] and (earlier[2], earlier[3]) == (
                    scan.result().content_hash, read_key) and (
                    earlier[6] is None or Path(earlier[6]).exists()):
                touched.append((stat.st_size, stat.st_mtime_ns, str(path)))
                done(names[path], "rehashed", seconds=time.perf_counter() - started)
                continue
            row = file_row(path, names[path], agent, read_key,
                           **read_file(path, agent, registry, copy_dir, scan))
            row["action"] = "refused" if row["problem"] else "loaded"
            rows.append(row)
            if str(path) in stored:
                replaced.append(str(path))
            seconds = time.perf_counter() - started
            done(names[path], row["action"], row["record_count"], seconds)
            said = row["problem"] or f"{row['record_count']} records"
            log(f"{row['action']} {path}: {said} ({seconds:.1f} s)")
    con.execute(LISTING_TABLE)
    if previous is not None:
        kept = ", ".join(column for column in FILE_COLUMNS if column != "action")
        con.execute(f"insert into {LISTING} ({kept}, action) select {kept}, 'kept' "
                    f"from {previous} where not list_contains(?, source_path)", [replaced])
    for entry in touched:
        con.execute(f"update {LISTING} set size_bytes = ?, modified_ns = ?, "
                    "action = 'rehashed' where source_path = ?", list(entry))
    if rows:
        insert_file_rows(con, rows)
    forget_copies(con, copy_dir)
    for agent in sorted(registry.patterns):
        readable = con.execute(f"select count(*) from {LISTING} where agent = ? "
                               "and problem is null", [agent]).fetchall()[0][0]
        if not readable:
            log(f"note: no readable {agent} file ({', '.join(registry.patterns[agent])}) in "
                f"{input_dir}; its rows in the marts will be empty")
    return actions


def forget_copies(con: duckdb.DuckDBPyConnection, copy_dir: Path) -> None:
    """Delete the copies no listed file is read from."""
    if not copy_dir.is_dir():
        return
    wanted = {row[0] for row in con.execute(
        f"select read_path from {LISTING} where read_path is not null").fetchall()}
    for path in copy_dir.iterdir():
        if str(path) not in wanted:
            path.unlink()
