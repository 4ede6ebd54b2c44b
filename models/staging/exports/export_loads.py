"""Runs the loader (agent_scoring.loader) at the start of `dbt build`: every export in the
input directory is listed in raw.export_files with how staging reads it (stg_exports__rows
reads each in place, or a UTF-8 copy of it). One row per file: what this load did with it."""

import json
from pathlib import Path

from agent_scoring.loader import (
    DictionaryError,
    InputDirError,
    Registry,
    export_dictionary,
    load_exports,
)


def model(dbt, session):
    dbt.config(materialized="table")
    agents = json.loads(dbt.config.get("agents"))
    input_dir = Path(dbt.config.get("input_dir"))
    try:
        dictionary = export_dictionary(dbt.ref("export_columns").fetchall())
    except DictionaryError as exc:
        return failed(session, "seeds/export_columns.csv", str(exc))
    registry = Registry(
        # an agent that lists no files has <agent>_*.csv (macro agent_file_patterns)
        patterns={agent: spec.get("files", [f"{agent}_*.csv"]) for agent, spec in agents.items()},
        required={agent: spec.get("required_columns", []) for agent, spec in agents.items()},
        dictionary=dictionary,
        max_line_bytes=int(dbt.config.get("csv_max_line_bytes")),
        max_fields=int(dbt.config.get("csv_max_fields")),
        excerpt_chars=int(dbt.config.get("csv_excerpt_chars")),
        other_patterns=json.loads(dbt.config.get("other_files")),
        # what an agent declares of its export's shape (docs/adding-an-agent.md)
        headers={agent: {header: [columns] if isinstance(columns, str) else columns
                         for header, columns in spec.get("headers", {}).items()}
                 for agent, spec in agents.items()},
        sheets={agent: spec["sheet"] for agent, spec in agents.items() if spec.get("sheet")},
        settings_sheets={agent: spec["settings_sheet"] for agent, spec in agents.items()
                         if spec.get("settings_sheet")},
    )
    try:
        # a connection of its own: the loader commits its listing in one transaction
        actions = load_exports(session.cursor(), input_dir, registry,
                               samples_dir=Path(dbt.config.get("samples_dir")))
    except InputDirError as exc:
        return failed(session, str(input_dir), str(exc))
    return done(session, [[a["source_file"], a["action"], a["records"], a["seconds"], None]
                          for a in actions])


def failed(session, where: str, problem: str):
    """One failed row: the post-hook fails the build in one line (an exception here prints
    a traceback)."""
    return done(session, [[where, "failed", None, 0.0, problem]])


def done(session, rows: list[list]):
    session.execute(
        "create or replace temp table export_loads_done (source_file varchar, "
        "action varchar, records bigint, seconds double, problem varchar)"
    )
    if rows:
        session.executemany("insert into export_loads_done values (?, ?, ?, ?, ?)", rows)
    return session.table("export_loads_done")
