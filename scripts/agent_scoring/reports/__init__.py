"""Reporters: which files a report covers and the context its template needs.

Every agent of the registry (the `agents` mart, built from vars.agents) gets a report from
the shared marts (`common.py`, `templates/generic_report.md.j2`). An agent adds only what
is its own: a template `templates/<agent>_report.md.j2` that extends the generic one, and a
module `reports/<agent>.py` with `extra_contexts(con, files, contexts)` (its own queries)
and, optionally, `summary(context)` and `REQUIRED_TABLES`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from types import ModuleType

import duckdb

Connection = duckdb.DuckDBPyConnection
ByFile = dict[str, list[dict]]

# `source_file {IN_FILES}`: the batched queries' filter, one varchar[] of the files rendered.
IN_FILES = "in (select unnest(?::varchar[]))"
# the speed rubrics as every report names them
RUBRIC_NAMES = {"single": "단일", "multi": "복수"}


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


def first_by_file(found: ByFile, source_files: list[str], default: dict) -> dict[str, dict]:
    """Per file: its first row, or `default` for a file without rows."""
    return {f: found[f][0] if found[f] else dict(default) for f in source_files}


def tables(con: Connection) -> set[str]:
    return {r["table_name"] for r in rows(con, "select table_name from information_schema.tables")}


def agent_extension(agent: str) -> ModuleType | None:
    """`agent_scoring.reports.<agent>` when the agent has report code of its own."""
    name = f"{__name__}.{agent}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def registry(con: Connection) -> dict[str, Reporter]:
    """A reporter per registered agent (the warehouse's `agents` mart), then RAG."""
    from agent_scoring.reports import common, rag

    present = tables(con)
    reporters: dict[str, Reporter] = {}
    if "agents" in present:
        for spec in rows(con, "select * from agents order by agent"):
            reporters[spec["agent"]] = common.agent_reporter(spec, agent_extension(spec["agent"]))
    reporters[rag.REPORTER.agent] = rag.REPORTER
    return reporters


def render_report(con: Connection, agent: str, source_file: str) -> str:
    """One file's report as `score-report` writes it."""
    from agent_scoring.markdown import render

    reporter = registry(con)[agent]
    return render(reporter.template, reporter.contexts(con, [source_file])[0])
