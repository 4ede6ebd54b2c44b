"""The one way into the warehouse: opening it read-only with errors a user can act on, and
the plain selects every report sends (`rows`), on DuckDB or on what the Spark target built
(agent_scoring.spark.SparkConnection)."""

from __future__ import annotations

import contextlib
import os
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import duckdb

DEFAULT_DB = "agent_scoring.duckdb"
# A report is ~100 small queries: below this size one thread answers them faster than
# several (scheduling costs more than it saves); above it, DuckDB's default is faster.
SMALL_WAREHOUSE_BYTES = 256 << 20


class Connection(Protocol):
    """What the reports need of a warehouse connection: DuckDB's, or SparkConnection."""

    description: Any

    def execute(self, sql: str, params: list | None = None) -> Any: ...


ByFile = dict[str, list[dict]]
# `source_file {IN_FILES}` with the files as one list parameter: `rows` writes it out as
# `in (?, ?, …)`, which every engine reads.
IN_FILES = "in ?"


def spelled_out(sql: str, params: list) -> tuple[str, list]:
    """`sql` and `params` with each list parameter written as `(?, ?, …)` (`(null)` when
    empty: no row matches)."""
    parts = sql.split("?")
    if len(parts) - 1 != len(params):
        raise ValueError(f"{len(params)} parameters for {len(parts) - 1} markers: {sql}")
    text, flat = [parts[0]], []
    for param, rest in zip(params, parts[1:], strict=True):
        if isinstance(param, (list, tuple)):
            text.append(f"({', '.join('?' * len(param))})" if param else "(null)")
            flat.extend(param)
        else:
            text.append("?")
            flat.append(param)
        text.append(rest)
    return "".join(text), flat


def rows(con: Connection, sql: str, params: list | None = None) -> list[dict]:
    """Run a plain select and return its rows as dicts keyed by column name."""
    cur = con.execute(*spelled_out(sql, params or []))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]


def rows_by_file(con: Connection, sql: str, params: list | None = None) -> ByFile:
    """`rows` split by their `source_file` column (dropped from each row), in query order;
    a file without rows maps to []."""
    grouped: ByFile = defaultdict(list)
    for r in rows(con, sql, params):
        grouped[r.pop("source_file")].append(r)
    return grouped


def select_by_file(
    con: Connection, model: str, selected: str, source_files: list[str], *,
    agent: str | None = None, where: str = "", params: tuple = (), order: str = "",
) -> ByFile:
    """`select <selected> from <model>` for the files (and the agent), with an extra
    condition (`?` markers for `params`) and order: a report section's rows by file."""
    sql = f"select source_file, {selected} from {model} where source_file {IN_FILES}"
    args: list = [source_files]
    if agent is not None:
        sql += " and agent = ?"
        args.append(agent)
    if where:
        sql += f" and {where}"
        args.extend(params)
    if order:
        sql += f" order by {order}"
    return rows_by_file(con, sql, args)


def first_by_file(found: ByFile, source_files: list[str], default: dict) -> dict[str, dict]:
    """Per file: its first row, or `default` for a file without rows."""
    return {f: found[f][0] if found[f] else dict(default) for f in source_files}


def tables(con: Connection) -> set[str]:
    """The tables and views of the warehouse's main schema."""
    if hasattr(con, "table_names"):  # Spark: no information_schema
        return set(con.table_names())
    return {r["table_name"] for r in rows(
        con, "select table_name from information_schema.tables where table_schema = 'main'")}


def columns(con: Connection, table: str) -> list[str]:
    """A table's column names in order."""
    if hasattr(con, "column_names"):
        return con.column_names(table)
    return [r["column_name"] for r in rows(
        con, "select column_name from information_schema.columns where table_name = ? "
        "and table_schema = 'main' order by ordinal_position", [table])]


def table_comment(con: Connection, table: str) -> str | None:
    """The description dbt wrote on a table (persist_docs), if any."""
    if hasattr(con, "table_comment"):
        return con.table_comment(table)
    found = rows(con, "select comment from duckdb_tables() where table_name = ? "
                 "and schema_name = 'main'", [table])
    return found[0]["comment"] if found else None


class WarehouseError(Exception):
    """A problem with the warehouse file that the user fixes by (re)building it."""


# what to do with a damaged warehouse (also said by agent_scoring.dbt_plugin)
REBUILD_ADVICE = ("delete it and run `dbt build`, which rebuilds everything from the exports "
                  "in the input folder")
# what DuckDB says when a block of the file does not match its checksum
DAMAGE_MARKERS = ("Corrupt database file", "does not match stored checksum")


def is_damage(error: BaseException | str) -> bool:
    return any(marker in str(error) for marker in DAMAGE_MARKERS)


class DamagedWarehouse(WarehouseError):
    """A block of the file is corrupt: rebuilding from the exports is the way back."""


def damaged(path: Path, error: BaseException | str) -> DamagedWarehouse:
    """One line: the file is damaged, and how to get a good one back."""
    lines = str(error).strip().splitlines()
    return DamagedWarehouse(
        f"{path} is damaged ({lines[0] if lines else 'checksum mismatch'}): {REBUILD_ADVICE}")


@contextlib.contextmanager
def damage_reported(path: Path) -> Iterator[None]:
    """A query that hits a damaged block raises the one-line WarehouseError instead."""
    try:
        yield
    except duckdb.Error as exc:
        if is_damage(exc):
            raise damaged(path, exc) from exc
        raise


class UnfinishedBuild(WarehouseError):
    """The last build did not finish: some marts may be new and others old."""


def lock_holder(message: str) -> str | None:
    """The process DuckDB names in a lock error ("Conflicting lock is held in <exe> (PID n)"),
    as "<program> (PID n)"; None when the error is not about a lock."""
    found = re.search(r"Conflicting lock is held in (\S+)(?: \(PID (\d+)\))?", message)
    if found is None:
        return None
    program = found.group(1).rsplit("/", 1)[-1]
    return f"{program} (PID {found.group(2)})" if found.group(2) else program


def default_db_path() -> Path:
    return Path(os.environ.get("AGENT_SCORING_DB", DEFAULT_DB))


def connect_read_only(path: Path) -> duckdb.DuckDBPyConnection:
    """Open the DuckDB file read-only; dbt must have released it."""
    if not path.exists():
        raise WarehouseError(f"{path}: database not found; run `dbt build` first")
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            holder = lock_holder(str(exc)) or "another process"
            raise WarehouseError(
                f"{path}: database is locked by another process, {holder} (a running "
                "`dbt build`?); wait for it to finish and run again"
            ) from exc
        raise WarehouseError(f"{path}: cannot open database ({exc})") from exc
    except duckdb.Error as exc:
        raise WarehouseError(f"{path}: not a DuckDB database ({exc})") from exc
    if path.stat().st_size < SMALL_WAREHOUSE_BYTES:
        # not a connect() option: another connection of this process may share the file
        con.execute("set threads = 1")
    return con


def require_tables(con: Connection, path: Path, needed: list[str]) -> None:
    """Fail with one line when the marts a report needs were never built."""
    present = tables(con)
    missing = [t for t in needed if t not in present]
    if missing:
        raise WarehouseError(
            f"{path}: table {missing[0]} is missing; run `dbt build` first"
        )


def require_finished_build(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a warehouse whose last dbt build was killed or failed (raw.builds, written by
    the build's on-run-start and on-run-end hooks: macros/build_log.sql)."""
    try:
        last = con.execute(
            "select command, started_at, ended_at, first_failure, complete "
            "from raw.builds order by build_no desc limit 1"
        ).fetchone()
    except duckdb.CatalogException:
        last = None
    if last is None:
        raise UnfinishedBuild(f"{path}: no `dbt build` is recorded in it; run `dbt build`")
    command, started_at, ended_at, first_failure, complete = last
    if first_failure is not None and is_damage(first_failure):
        raise damaged(path, first_failure.split(": ", 1)[-1])
    if ended_at is None:
        raise UnfinishedBuild(
            f"{path}: the last `dbt {command}` (started {started_at:%Y-%m-%d %H:%M:%S}) "
            "did not finish: run `dbt build` again"
        )
    if first_failure is not None:
        raise UnfinishedBuild(
            f"{path}: the last `dbt {command}` failed ({first_failure}): "
            "fix it and run `dbt build` again"
        )
    if not complete:
        raise UnfinishedBuild(
            f"{path}: the last whole `dbt build` did not finish (a `--select` build since "
            "does not mend it): run `dbt build`"
        )


def open_warehouse(path: Path) -> duckdb.DuckDBPyConnection:
    """The warehouse, read-only, once its last build finished."""
    con = connect_read_only(path)
    try:
        with damage_reported(path):
            require_finished_build(con, path)
    except WarehouseError:
        con.close()
        raise
    return con
