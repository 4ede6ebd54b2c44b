"""Runs the document loader (agent_scoring.loader.documents) at the start of a RAG build: every
new or changed dataset, judge report and label file in the input directory lands in
raw.rag_documents, which the RAG staging models read as the source `rag`. One row per file:
what this load did with it."""

import json
from pathlib import Path

from agent_scoring.loader.documents import load_documents
from agent_scoring.loader.land import InputDirError, Registry, choose_input_dir
from agent_scoring.loader.mirror import mirror_documents


def model(dbt, session):
    dbt.config(materialized="table")
    documents = json.loads(dbt.config.get("documents"))
    # the same folder the export loader reads: the bundled samples while the input folder
    # holds no file any reader claims
    agents = json.loads(dbt.config.get("agents"))
    claims = Registry(patterns={agent: spec["files"] for agent, spec in agents.items()},
                      required={},
                      dictionary={}, other_patterns=json.loads(dbt.config.get("other_files")))
    input_dir = Path(dbt.config.get("input_dir"))
    rows = []
    try:
        chosen = choose_input_dir(input_dir, Path(dbt.config.get("samples_dir")), claims,
                                  log=lambda _: None)
        actions = load_documents(session.cursor(), chosen, documents)
    except InputDirError as exc:
        rows.append([str(input_dir), None, "failed", str(exc)])
    else:
        rows = [[a["source_file"], a["kind"], a["action"], a["problem"]] for a in actions]
        landing_dir = dbt.config.get("landing_dir")
        if landing_dir:  # a Parquet copy for the Spark target (docs/spark.md)
            mirror_documents(session.cursor(), Path(landing_dir))
    session.execute("create or replace temp table rag_loads_done (source_file varchar, "
                    "kind varchar, action varchar, problem varchar)")
    if rows:
        session.executemany("insert into rag_loads_done values (?, ?, ?, ?)", rows)
    return session.table("rag_loads_done")
