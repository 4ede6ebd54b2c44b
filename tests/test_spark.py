"""The same models on Apache Spark (docs/spark.md): the bundled samples (agents and RAG),
the resume and label fixtures and the team's real plan export and RAG runs built on the
`spark` target (Spark in this process) give every mart the DuckDB build gives, row for row,
and the same reports.

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
from test_rag_real_data import DATASET as REAL_DATASET
from test_rag_real_data import REAL_DATA, RUN_1210, RUN_1211

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

# the loaders run on DuckDB; Spark reads their Parquet copy
DUCKDB_ONLY = ("export_loads",)
# build times and rule digests, which differ between any two builds
VOLATILE = ("fingerprint", "digest", "scored_at", "compared_at", "loaded_at", "started_at",
            "ended_at")


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
             SAMPLES / "url_agent_sample.csv", FIXTURES / "resume_agent_published.csv",
             *sorted(SAMPLES.glob("router_eval_result_*.xlsx")),
             *sorted(SAMPLES.glob("*.json")),
             FIXTURES / "rag" / "rag_hallucination_labels_sample.csv"]
    if REAL_PLAN.exists():
        files.append(REAL_PLAN)
    if REAL_DATASET.exists():
        files += [REAL_DATASET, REAL_DATA / RUN_1210, REAL_DATA / RUN_1211]
    duck = build(copy_inputs(files, work / "input"), work, extra=["--vars", settings(work)])
    return duck, spark_build(duck, "spark-copy.duckdb")


def settings(work: Path) -> str:
    return ("{run_pairs: [{agent: resume_agent, head: resume_agent_sample.csv, base: null}], "
            f"landing_dir: '{work / 'landing'}'}}")


def spark_build(duck: Warehouse, copy_name: str) -> Path:
    """`dbt build --target spark` of what the DuckDB build loaded, copied into DuckDB."""
    env = {**duck.env(), "AGENT_SCORING_SPARK_DIR": str(duck.work / "spark"),
           "DBT_TARGET_PATH": str(duck.work / "target-spark")}
    proc = run_dbt(["build", "--target", "spark", "--vars", settings(duck.work)], env)
    if proc.returncode != 0:
        pytest.fail(f"dbt build --target spark failed:\n{proc.stdout[-6000:]}")
    copy = duck.work / copy_name
    script = ("import sys; from pathlib import Path; "
              "from agent_scoring.spark import spark_session, copy_warehouse; "
              "copy_warehouse(spark_session(Path(sys.argv[1])), Path(sys.argv[2]))")
    subprocess.run([sys.executable, "-c", script, str(REPO), str(copy)], env=env,
                   check=True, capture_output=True, timeout=1800)
    return copy


def differing_tables(duck: Warehouse, copy: Path) -> list[str]:
    with duck.connect() as duck_con, duckdb.connect(str(copy), read_only=True) as spark_con:
        tables = [name for (name,) in duck_con.execute(
            "select table_name from information_schema.tables where table_schema = 'main' "
            "order by 1").fetchall() if not name.startswith(DUCKDB_ONLY)]
        assert {"item_scores", "set_scores", "runs", "run_comparisons", "rag_judgements",
                "rag_run_scores", "router_agent__accuracy", "router_agent__run_settings"
                } <= set(tables)
        differing = []
        for table in tables:
            duck_columns, spark_columns = columns(duck_con, table), columns(spark_con, table)
            assert set(duck_columns) == set(spark_columns), table
            names = [name for name in duck_columns if not any(v in name for v in VOLATILE)]
            kinds = [duck_columns[name] for name in names]
            if rows(duck_con, table, names, kinds) != rows(spark_con, table, names, kinds):
                differing.append(table)
    return differing


@needs_spark
def test_every_mart_equals_the_duckdb_build_row_for_row(both_builds):
    assert differing_tables(*both_builds) == []


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
def test_score_report_on_the_spark_copy_writes_what_it_writes_on_duckdb(both_builds,
                                                                        tmp_path):
    duck, copy = both_builds
    score_report = Path(sys.executable).with_name("score-report")
    written = {}
    for name, db in (("duckdb", duck.db), ("spark", copy)):
        done = subprocess.run([str(score_report), "--db", str(db), "--out", str(tmp_path / name)],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        written[name] = {path.name: path.read_text(encoding="utf-8")
                         for path in sorted((tmp_path / name).glob("*.md"))}
    assert "plan_agent_sample_score_summary.md" in written["spark"]
    assert any(name.startswith("evaluation_report_sample") for name in written["spark"])
    assert written["spark"] == written["duckdb"]


@needs_spark
def test_score_report_reads_the_spark_target_and_writes_what_it_writes_on_duckdb(
        both_builds, tmp_path):
    """No copy: the reports' plain selects run on Spark itself (score-report --target spark)."""
    duck, _ = both_builds
    score_report = Path(sys.executable).with_name("score-report")
    env = {**duck.env(), "AGENT_SCORING_SPARK_DIR": str(duck.work / "spark")}
    written = {}
    for name, how in (("duckdb", ["--db", str(duck.db)]),
                      ("spark", ["--target", "spark", "--project", str(REPO)])):
        done = subprocess.run([str(score_report), *how, "--out", str(tmp_path / name)],
                              capture_output=True, text=True, timeout=1200, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        written[name] = {path.name: path.read_text(encoding="utf-8")
                         for path in sorted((tmp_path / name).glob("*.md"))}
    assert "plan_agent_sample_score_summary.md" in written["spark"]
    assert any(name.startswith("evaluation_report_sample") for name in written["spark"])
    for name, text in written["duckdb"].items():
        assert written["spark"].get(name) == text, name
    assert written["spark"].keys() == written["duckdb"].keys()


@needs_spark
def test_the_rules_unit_tests_pass_on_spark(both_builds):
    duck, _ = both_builds
    work = duck.work
    env = {**duck.env(), "AGENT_SCORING_SPARK_DIR": str(work / "spark"),
           "AGENT_SCORING_LANDING_DIR": str(work / "landing"),
           "DBT_TARGET_PATH": str(work / "target-spark-unit")}
    proc = run_dbt(["test", "--target", "spark", "--select", "test_type:unit"], env)
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert " unit tests" in proc.stdout and "ERROR=0" in proc.stdout


@needs_spark
def test_a_deleted_and_a_changed_export_leave_spark_where_duckdb_is(both_builds):
    """The incremental path (runs last: it changes the inputs). Spark drops a deleted
    export's partitions and rewrites a changed one's, as DuckDB's delete+insert does."""
    duck, _ = both_builds
    (duck.input_dir / "url_agent_sample.csv").unlink()
    plan = duck.input_dir / "plan_agent_sample.csv"
    text = plan.read_text(encoding="utf-8-sig")
    changed = text.replace('""formType"": ""SELECT""', '""formType"": ""INPUT""', 2)
    assert changed != text
    plan.write_text(changed, encoding="utf-8-sig")
    proc = run_dbt(["build", "--vars", settings(duck.work)], duck.env())
    assert proc.returncode == 0, proc.stdout[-4000:]
    copy = spark_build(duck, "spark-copy-after.duckdb")
    assert differing_tables(duck, copy) == []
    with duckdb.connect(str(copy), read_only=True) as con:
        assert con.execute("select count(*) from item_scores where source_file = "
                           "'url_agent_sample.csv'").fetchone() == (0,)
