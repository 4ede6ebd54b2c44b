"""One reporter per agent: which files it covers and the context its template needs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

import duckdb

Connection = duckdb.DuckDBPyConnection
ByFile = dict[str, list[dict]]

# `source_file {IN_FILES}`: the batched queries' filter, one varchar[] of the files rendered.
IN_FILES = "in (select unnest(?::varchar[]))"


@dataclass(frozen=True)
class Reporter:
    agent: str
    template: str
    required_tables: tuple[str, ...]
    sources: Callable[[Connection], list[str]]
    context: Callable[[Connection, str], dict]
    summary: Callable[[dict], str]
    # Contexts of many files from one run of each query; None: `context` once per file.
    batch_context: Callable[[Connection, list[str]], list[dict]] | None = None

    def output_name(self, source_file: str) -> str:
        return f"{PurePath(source_file).stem}_score_summary.md"

    def contexts(self, con: Connection, source_files: list[str]) -> list[dict]:
        """One context per file, in the order given."""
        if not source_files:
            return []
        if self.batch_context is None:
            return [self.context(con, f) for f in source_files]
        return self.batch_context(con, source_files)


def rows(con: Connection, sql: str, params: list | None = None) -> list[dict]:
    """Run a query and return rows as dicts keyed by column name."""
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]


def rows_by_file(con: Connection, sql: str, params: list | None = None) -> ByFile:
    """`rows` split by their `source_file` column (dropped from each row), in query order;
    a file without rows maps to []."""
    grouped: ByFile = defaultdict(list)
    for r in rows(con, sql, params):
        grouped[r.pop("source_file")].append(r)
    return grouped


def registry() -> dict[str, Reporter]:
    # Imported here so one broken reporter module names itself in the traceback.
    from agent_scoring.reports import plan_agent, resume_agent

    reporters = [plan_agent.REPORTER, resume_agent.REPORTER]
    try:
        from agent_scoring.reports import rag

        reporters.append(rag.REPORTER)
    except ImportError:
        pass
    return {r.agent: r for r in reporters}
