"""The same models on Apache Spark (docs/spark.md): the bundled samples, the
resume fixture and the team's real plan export built on the `spark` target (Spark in this
process) give every mart the DuckDB build gives, row for row, and the same reports.

Slow (a Spark build is minutes on two cores): `.ci/run` runs it on its own with
`pytest -m spark`; the README's test command leaves it out."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from conftest import REAL_PLAN
from support.warehouse import FIXTURES, REPO, SAMPLES, Warehouse, build, copy_inputs, run_dbt

pytestmark = pytest.mark.spark

JAVA = shutil.which("java")
try:
    import pyspark  # noqa: F401
except ImportError:
    pyspark = None

needs_spark = pytest.mark.skipif(
    JAVA is None or pyspark is None,
    reason="needs Java 17 (apt-get install openjdk-17-jre-headless) and "
    "pip install -e '.[spark]'",
)

# not built on Spark yet: the RAG readers read their JSON files in DuckDB (README)
DUCKDB_ONLY = ("export_loads", "stg_rag__", "int_rag__", "rag_")
# build times and rule digests, which differ between any two builds
VOLATILE = ("fingerprint", "digest", "scored_at", "loaded_at", "started_at", "ended_at")


def normalized(value, is_json: bool = False):
    """A value both engines agree on: floats to 1e-9, JSON text by its content."""
    if value is None:
        return None
    if is_json and isinstance(value, str):
        try:  # a number is a number: Spark writes the JSON 0.0 as 0
            return json.dumps(json.loads(value, parse_int=float), sort_keys=True)
        except ValueError:
            return value
    if isinstance(value, bool):
        return value
    if isinstance(value, (float, Decimal)):
        number = float(value)
        return "nan" if math.isnan(number) else round(number, 9) + 0.0
    if isinstance(value, list):
        return tuple(normalized(item, is_json) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, normalized(item, is_json)) for key, item in value.items()))
    return value


def columns(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    return dict(con.execute(
        "select column_name, data_type from information_schema.columns "
        "where table_schema = 'main' and table_name = ?", [table]).fetchall())


def rows(con: duckdb.DuckDBPyConnection, table: str, names: list[str], kinds: list[str]):
    listed = ", ".join(f'"{name}"' for name in names)
    found = con.execute(f'select {listed} from main."{table}"').fetchall()
    return Counter(tuple(normalized(value, kind.startswith("JSON"))
                         for value, kind in zip(row, kinds, strict=True)) for row in found)


@pytest.fixture(scope="module")
def both_builds(tmp_path_factory) -> tuple[Warehouse, Path]:
    """The DuckDB build (which also writes the loader's Parquet copy) and a DuckDB copy of
    the Spark build of the same files."""
    work = tmp_path_factory.mktemp("spark")
    files = [SAMPLES / "plan_agent_sample.csv", SAMPLES / "resume_agent_sample.csv",
             SAMPLES / "url_agent_sample.csv", FIXTURES / "resume_agent_published.csv"]
    if REAL_PLAN.exists():
        files.append(REAL_PLAN)
    landing = work / "landing"
    settings = ("{run_pairs: [{agent: resume_agent, head: resume_agent_sample.csv, base: null}], "
                f"landing_dir: '{landing}'}}")
    duck = build(copy_inputs(files, work / "input"), work, extra=["--vars", settings])
    env = {**duck.env(), "AGENT_SCORING_SPARK_DIR": str(work / "spark"),
           "DBT_TARGET_PATH": str(work / "target-spark")}
    proc = run_dbt(["build", "--target", "spark", "--vars", settings], env)
    if proc.returncode != 0:
        pytest.fail(f"dbt build --target spark failed:\n{proc.stdout[-6000:]}")
    copy = work / "spark-copy.duckdb"
    script = ("import sys; from pathlib import Path; "
              "from agent_scoring.spark import spark_session, copy_warehouse; "
              "copy_warehouse(spark_session(Path(sys.argv[1])), Path(sys.argv[2]))")
    subprocess.run([sys.executable, "-c", script, str(REPO), str(copy)], env=env,
                   check=True, capture_output=True, timeout=1800)
    return duck, copy


@needs_spark
def test_every_mart_equals_the_duckdb_build_row_for_row(both_builds):
    duck, copy = both_builds
    with duck.connect() as duck_con, duckdb.connect(str(copy), read_only=True) as spark_con:
        tables = [name for (name,) in duck_con.execute(
            "select table_name from information_schema.tables where table_schema = 'main' "
            "order by 1").fetchall() if not name.startswith(DUCKDB_ONLY)]
        assert {"item_scores", "set_scores", "runs", "run_comparisons"} <= set(tables)
        differing = []
        for table in tables:
            duck_columns, spark_columns = columns(duck_con, table), columns(spark_con, table)
            assert set(duck_columns) == set(spark_columns), table
            names = [name for name in duck_columns if not any(v in name for v in VOLATILE)]
            kinds = [duck_columns[name] for name in names]
            if rows(duck_con, table, names, kinds) != rows(spark_con, table, names, kinds):
                differing.append(table)
        assert differing == []


@needs_spark
@pytest.mark.skipif(not REAL_PLAN.exists(), reason="needs ../shared/real-data")
def test_the_real_plan_report_from_spark_is_the_published_one(both_builds):
    from agent_scoring.reports import render_report
    from test_agent_registry import REAL_PLAN_REPORT_SHA256, digest

    _, copy = both_builds
    with duckdb.connect(str(copy), read_only=True) as con:
        text = render_report(con, "plan_agent", REAL_PLAN.name)
    assert digest(text) == REAL_PLAN_REPORT_SHA256


@needs_spark
def test_score_report_reads_the_spark_copy_and_says_what_it_lacks(both_builds, tmp_path):
    _, copy = both_builds
    score_report = Path(sys.executable).with_name("score-report")
    done = subprocess.run([str(score_report), "--db", str(copy), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "plan_agent_sample_score_summary.md").exists()
    assert "no RAG report: the RAG models are not built on the spark target" in done.stderr


# their input rows are DuckDB SQL (list literals, JSON casts): docs/spark.md
DUCKDB_FIXTURES = ["test_response_times_that_give_no_speed_score_say_why",
                   "test_url_accuracy_at_every_boundary_of_the_rule",
                   "test_url_strict_accuracy_gives_the_other_data_key_0"]


@needs_spark
def test_the_rules_unit_tests_pass_on_spark(both_builds):
    duck, _ = both_builds
    work = duck.work
    env = {**duck.env(), "AGENT_SCORING_SPARK_DIR": str(work / "spark"),
           "AGENT_SCORING_LANDING_DIR": str(work / "landing"),
           "DBT_TARGET_PATH": str(work / "target-spark-unit")}
    proc = run_dbt(["test", "--target", "spark", "--select", "test_type:unit",
                    "--exclude", *DUCKDB_FIXTURES], env)
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert " unit tests" in proc.stdout and "ERROR=0" in proc.stdout
