"""Reading what the Spark target built (docs/spark.md).

The Spark tables live in a metastore and a warehouse folder that only Spark reads well, so
the reports read a DuckDB copy of them: `copy_warehouse` opens the same in-process Spark
session as the `spark` target of profiles.yml and copies every table and view of the
warehouse into a DuckDB file, which `score-report --db` then reads like any warehouse.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import duckdb
import jinja2
import yaml

SCHEMAS = ("main", "raw")


def spark_settings(project_dir: Path) -> dict[str, str]:
    """The `spark` target's session settings from profiles.yml, env_var() resolved."""
    profiles = yaml.safe_load((project_dir / "profiles.yml").read_text(encoding="utf-8"))
    target = profiles["agent_scoring"]["outputs"]["spark"]
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    env.globals["env_var"] = lambda name, default=None: os.environ.get(name, default)
    return {key: env.from_string(str(value)).render()
            for key, value in target.get("server_side_parameters", {}).items()}


def spark_session(project_dir: Path) -> Any:
    """The Spark session of the `spark` target (the one dbt-spark's session method opens)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError as exc:  # the optional extra
        raise SystemExit("reading the spark target needs pyspark: pip install -e '.[spark]'") \
            from exc
    builder = SparkSession.builder.enableHiveSupport()
    for key, value in spark_settings(project_dir).items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def as_plain_columns(session: Any, name: str) -> Any:
    """The relation with VARIANT columns written as JSON text (Arrow has no VARIANT)."""
    frame = session.table(name)
    def plain(field: Any) -> str:
        kind = field.dataType
        if kind.typeName() == "variant":
            return f"to_json(`{field.name}`) as `{field.name}`"
        if kind.typeName() == "array" and kind.elementType.typeName() == "variant":
            return f"transform(`{field.name}`, value -> to_json(value)) as `{field.name}`"
        return f"`{field.name}`"

    columns = [plain(field) for field in frame.schema.fields]
    return frame.selectExpr(*columns)


def copy_warehouse(session: Any, out: Path, schemas: tuple[str, ...] = SCHEMAS) -> list[str]:
    """Copy every table and view of `schemas` into the DuckDB file `out` (replaced); returns
    the relations copied as schema.name. Spark writes each as Parquet, DuckDB reads that."""
    out.unlink(missing_ok=True)
    copied = []
    with tempfile.TemporaryDirectory(prefix="agent-scoring-spark-") as scratch, \
            duckdb.connect(str(out)) as con:
        for schema in schemas:
            if not session.catalog.databaseExists(schema):
                continue
            con.execute(f"create schema if not exists {schema}")
            for table in session.catalog.listTables(schema):
                if table.isTemporary:
                    continue
                name = f"{schema}.{table.name}"
                folder = Path(scratch) / name
                as_plain_columns(session, name).coalesce(1).write.parquet(str(folder))
                con.execute(f'create table {schema}."{table.name}" as '
                            f"select * from read_parquet('{folder}/*.parquet')")
                copied.append(name)
    return copied
