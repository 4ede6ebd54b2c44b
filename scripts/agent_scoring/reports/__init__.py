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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from types import ModuleType

# the database access every reporter uses, from the one module that owns it
from agent_scoring.db import (  # noqa: F401 - re-exported for the reporters
    IN_FILES,
    ByFile,
    Connection,
    first_by_file,
    rows,
    rows_by_file,
    select_by_file,
    tables,
)


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
