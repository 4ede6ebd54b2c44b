"""One reporter per agent: which files it covers and the context its template needs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

import duckdb

Connection = duckdb.DuckDBPyConnection


@dataclass(frozen=True)
class Reporter:
    agent: str
    template: str
    required_tables: tuple[str, ...]
    sources: Callable[[Connection], list[str]]
    context: Callable[[Connection, str], dict]
    summary: Callable[[dict], str]

    def output_name(self, source_file: str) -> str:
        return f"{PurePath(source_file).stem}_score_summary.md"


def rows(con: Connection, sql: str, params: list | None = None) -> list[dict]:
    """Run a query and return rows as dicts keyed by column name."""
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]


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
