"""Build the dbt project into a throw-away DuckDB file, the way a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
FIXTURES = REPO / "tests" / "fixtures"
REAL_DATA = REPO.parent / "shared" / "real-data"


@dataclass(frozen=True)
class Warehouse:
    db: Path
    input_dir: Path
    work: Path
    log: str

    def connect(self) -> duckdb.DuckDBPyConnection:
        return duckdb.connect(str(self.db), read_only=True)

    def env(self) -> dict[str, str]:
        return dbt_env(self.input_dir, self.db, self.work)


def dbt_env(input_dir: Path, db: Path, work: Path) -> dict[str, str]:
    return {
        **os.environ,
        "AGENT_SCORING_INPUT_DIR": str(input_dir),
        "AGENT_SCORING_DB": str(db),
        "DBT_TARGET_PATH": str(work / "target"),
        "DBT_LOG_PATH": str(work / "logs"),
    }


def copy_inputs(files: list[Path], input_dir: Path) -> Path:
    input_dir.mkdir(parents=True, exist_ok=True)
    for f in files:
        shutil.copy(f, input_dir / f.name)
    return input_dir


def run_dbt(
    args: list[str], env: dict[str, str], cwd: Path = REPO
) -> subprocess.CompletedProcess:
    dbt = Path(sys.executable).with_name("dbt")
    return subprocess.run(
        [str(dbt), *args, "--no-use-colors"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )


def build(
    input_dir: Path, work: Path, select: list[str] | None = None, extra: list[str] = ()
) -> Warehouse:
    """`dbt build` (optionally `--select …` and other arguments) into work/warehouse.duckdb;
    fail on error."""
    db = work / "warehouse.duckdb"
    args = ["build", *(["--select", *select] if select else []), *extra]
    proc = run_dbt(args, dbt_env(input_dir, db, work))
    if proc.returncode != 0:
        pytest.fail(f"dbt build failed:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}")
    return Warehouse(db=db, input_dir=input_dir, work=work, log=proc.stdout)


def one(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> dict:
    """The single row a query returns, as a dict."""
    found = all_rows(con, sql, params)
    assert len(found) == 1, f"expected one row, got {len(found)}: {sql}"
    return found[0]


def all_rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]
