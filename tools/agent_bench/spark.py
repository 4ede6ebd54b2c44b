"""`scripts/bench spark`: the same generated exports built on DuckDB and on the spark target
(docs/spark.md), one after the other on this machine: a clean build and a build after one
more file arrives, wall time and peak RSS of each."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from agent_bench.generate import Faults, generate_exports
from agent_bench.measure import run_measured


@dataclass
class Figure:
    step: str
    rows: int
    wall_s: float
    peak_rss_mb: float
    ok: bool


def compare_engines(project_dir: Path, template: Path, rows: int, file_rows: tuple[int, int],
                    extra_rows: int, seed: int, workdir: Path | None, echo) -> list[Figure]:
    base = workdir or Path(tempfile.mkdtemp(prefix="agent-scoring-bench-spark-"))
    input_dir = base / "input"
    faults = Faults(timeout=0.03, empty=0.01, invalid_json=0.01)
    files = generate_exports(template, input_dir, rows, file_rows, seed, faults)
    extra = generate_exports(template, base / "extra", extra_rows, (extra_rows, extra_rows),
                             seed + 1, faults, first_index=len(files))[0]
    echo(f"  generated {rows:,} rows in {len(files)} files ({base})")
    env = {**os.environ, "AGENT_SCORING_INPUT_DIR": str(input_dir),
           "AGENT_SCORING_DB": str(base / "warehouse.duckdb"),
           "AGENT_SCORING_LANDING_DIR": str(base / "landing"),
           "AGENT_SCORING_SPARK_DIR": str(base / "spark"),
           "DBT_LOG_PATH": str(base / "logs")}
    dbt = str(Path(sys.executable).with_name("dbt"))
    figures = []

    def build(step: str, engine: str, total_rows: int) -> None:
        target = ["--target", "spark"] if engine == "spark" else []
        measured = run_measured(
            [dbt, "build", "--exclude", "tag:rag", "test_type:unit", *target],
            log_path=base / "logs" / f"{step.replace(' ', '-')}.log",
            env={**env, "DBT_TARGET_PATH": str(base / f"target-{engine}")}, cwd=project_dir)
        figure = Figure(step, total_rows, measured.wall_s, measured.peak_rss_mb,
                        measured.returncode == 0)
        figures.append(figure)
        echo(f"  {step}: {figure.wall_s:.1f} s, {figure.peak_rss_mb:,.0f} MB"
             + ("" if figure.ok else f"  FAILED (log: {measured.log_path})"))

    build("duckdb clean (load + Parquet copy + scoring)", "duckdb", rows)
    build("spark clean", "spark", rows)
    shutil.copy(extra.path, input_dir / extra.path.name)
    build(f"duckdb +1 file ({extra_rows} rows)", "duckdb", rows + extra_rows)
    build(f"spark +1 file ({extra_rows} rows)", "spark", rows + extra_rows)
    if workdir is None and all(f.ok for f in figures):
        shutil.rmtree(base, ignore_errors=True)
    return figures
