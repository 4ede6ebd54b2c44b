"""Runs the loader (agent_scoring.loader) at the start of `dbt build`: every new or changed
export in the input directory lands in raw.export_files / raw.export_rows, which the staging
models read as the source `exports`. One row per file: what this load did with it."""

from pathlib import Path

from agent_scoring.loader import Registry, load_exports


def model(dbt, session):
    dbt.config(materialized="table")
    agents = dbt.ref("agents").select("agent, file_patterns, required_columns").fetchall()
    registry = Registry(
        patterns={agent: list(patterns) for agent, patterns, _ in agents},
        required={agent: list(required) for agent, _, required in agents},
        dictionary=dict(dbt.ref("export_columns").fetchall()),
        max_line_bytes=int(dbt.config.get("csv_max_line_bytes")),
    )
    # a connection of its own: the loader commits each file in a transaction of its own
    actions = load_exports(session.cursor(), Path(dbt.config.get("input_dir")), registry)
    session.execute(
        "create or replace temp table export_loads_done "
        "(source_file varchar, action varchar, records bigint, seconds double)"
    )
    if actions:
        session.executemany(
            "insert into export_loads_done values (?, ?, ?, ?)",
            [[a["source_file"], a["action"], a["records"], a["seconds"]] for a in actions],
        )
    return session.table("export_loads_done")
