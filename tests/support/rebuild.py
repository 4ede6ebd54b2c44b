"""Builds of one input folder into a warehouse and a clean twin, compared table by table."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb

from support import warehouse
from support.warehouse import SAMPLES, WITHOUT_DATA_TESTS, dbt_env, run_dbt

INPUTS = [
    "plan_agent_sample.csv",
    "resume_agent_sample.csv",
    "url_agent_sample.csv",
    "qa_dataset_sample.json",
    "evaluation_report_sample_20251210_100000.json",
    "evaluation_report_sample_20251211_100000.json",
]
# when a row was scored, compared or loaded, which reading of its file it came from (a new id
# each time the loader reads a file), the copy DuckDB read (beside its warehouse), what the
# last load did, and the log of builds differ by build
VOLATILE = {"scored_at", "compared_at", "loaded_at", "file_version", "file_fingerprint",
            "pair_fingerprint", "read_path"}
SKIPPED_TABLES = {"export_loads", "builds"}


def env_for(work: Path, inputs: Path, db: str) -> dict[str, str]:
    return dbt_env(inputs, work / db, work / db.replace(".duckdb", ""))


def build(
    work, inputs, *extra: str, db: str = "w.duckdb", expect: int = 0, data_tests: bool = False
) -> str:
    """A build whose warehouse is compared with a clean build's, or whose log or failure is
    the subject: without the data tests unless `data_tests` (WITHOUT_DATA_TESTS)."""
    tests = [] if data_tests else list(WITHOUT_DATA_TESTS)
    proc = run_dbt(["build", *extra, *tests], env_for(work, inputs, db))
    assert proc.returncode == expect, proc.stdout[-5000:]
    return proc.stdout


def fresh_build(work, inputs, *extra: str) -> None:
    """A clean build of the same inputs into fresh.duckdb, built once per inputs (the kill
    tests alternate between two versions of one file)."""
    kept = kept_build(inputs, extra)
    (work / "fresh.duckdb").unlink(missing_ok=True)
    if kept is None or not kept.exists():
        build(work, inputs, *extra, db="fresh.duckdb")
        if kept is not None:
            warehouse.share(work / "fresh.duckdb", kept)
    else:
        shutil.copy(kept, work / "fresh.duckdb")


def keep_as_fresh(work, inputs, *extra: str) -> None:
    """The warehouse just built from empty is the clean build of these inputs."""
    kept = kept_build(inputs, extra)
    if kept is not None and not kept.exists():
        warehouse.share(work / "w.duckdb", kept)


def kept_build(inputs: Path, extra: tuple[str, ...]) -> Path | None:
    if warehouse.SHARED is None:
        return None
    # the folder too: its path is in the marts (source_path)
    digest = hashlib.md5(repr((str(inputs), extra)).encode())
    for path in sorted(inputs.iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    return warehouse.SHARED / "clean-builds" / f"{digest.hexdigest()}.duckdb"


def assert_same_warehouse(work) -> None:
    """Every table of schemas main and raw holds the same rows in both warehouses."""
    with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
        con.execute(f"attach '{work / 'fresh.duckdb'}' as fresh (read_only)")
        tables = [r for r in con.execute(
            "select schema_name, table_name from duckdb_tables() where database_name = 'w' "
            "and schema_name in ('main', 'raw') order by all").fetchall()
            if r[1] not in SKIPPED_TABLES]
        assert len(tables) > 40
        for schema, table in tables:
            columns = [r[0] for r in con.execute(f"describe {schema}.{table}").fetchall()
                       if r[0] not in VOLATILE]
            listed = ", ".join(f'"{c}"' for c in columns)
            for a, b in (("w", "fresh"), ("fresh", "w")):
                extra = con.execute(
                    f"select count(*) from (select {listed} from {a}.{schema}.{table} "
                    f"except all select {listed} from {b}.{schema}.{table})").fetchone()[0]
                assert extra == 0, f"{schema}.{table}: {extra} row(s) only in {a}"




def project_inputs(work: Path) -> Path:
    """An input folder with the bundled samples (agents and RAG)."""
    inputs = work / "input"
    inputs.mkdir()
    for name in INPUTS:
        (inputs / name).write_bytes((SAMPLES / name).read_bytes())
    return inputs
