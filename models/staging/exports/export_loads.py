"""Runs the loader (agent_scoring.loader) at the start of `dbt build` and returns its listing:
every export in the input directory, one row per file, with how stg_exports__rows reads it
(in place, or a UTF-8 copy of it) and what this load did with it (action)."""

import json
from pathlib import Path

from agent_scoring.loader import (
    LISTING,
    DictionaryError,
    InputDirError,
    Registry,
    export_dictionary,
    load_exports,
    previous_listing,
)


def model(dbt, session):
    dbt.config(materialized="table")
    agents = json.loads(dbt.config.get("agents"))
    input_dir = Path(dbt.config.get("input_dir"))
    # the last build's listing: a file unchanged since is not read again
    previous = previous_listing(session, dbt.this.schema, dbt.this.identifier)
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
        load_exports(session, input_dir, registry, previous,
                     samples_dir=Path(dbt.config.get("samples_dir")))
    except InputDirError as exc:
        return failed(session, str(input_dir), str(exc))
    return session.table(LISTING)


def failed(session, where: str, problem: str):
    """One failed row: the post-hook fails the build in one line (an exception here prints
    a traceback), and dbt keeps the last listing (the hook fails the model's transaction)."""
    session.execute(
        "create or replace temp table export_loads_failed as select ? as source_file, "
        "? as source_path, 'failed' as action, ? as problem", [where, where, problem])
    return session.table("export_loads_failed")
