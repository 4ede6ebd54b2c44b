"""Opening the warehouse read-only, with errors a user can act on."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

DEFAULT_DB = "agent_scoring.duckdb"
# A report is ~100 small queries: below this size one thread answers them faster than
# several (scheduling costs more than it saves); above it, DuckDB's default is faster.
SMALL_WAREHOUSE_BYTES = 256 << 20


class WarehouseError(Exception):
    """A problem with the warehouse file that the user fixes by (re)building it."""


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
            raise WarehouseError(
                f"{path}: database is locked by another process (a running `dbt build`?); "
                "wait for it to finish and run again"
            ) from exc
        raise WarehouseError(f"{path}: cannot open database ({exc})") from exc
    except duckdb.Error as exc:
        raise WarehouseError(f"{path}: not a DuckDB database ({exc})") from exc
    if path.stat().st_size < SMALL_WAREHOUSE_BYTES:
        # not a connect() option: another connection of this process may share the file
        con.execute("set threads = 1")
    return con


def require_tables(con: duckdb.DuckDBPyConnection, path: Path, tables: list[str]) -> None:
    """Fail with one line when the marts a report needs were never built."""
    present = {
        row[0]
        for row in con.execute("select table_name from information_schema.tables").fetchall()
    }
    missing = [t for t in tables if t not in present]
    if missing:
        raise WarehouseError(
            f"{path}: table {missing[0]} is missing; run `dbt build` first"
        )
