"""Reading what the Spark target built (docs/spark.md).

`score-report --target spark` reads the Spark tables themselves: `SparkConnection` opens
the same in-process Spark session as the `spark` target of profiles.yml and answers the
reports' plain selects as a DuckDB connection would. `copy_warehouse` (`score-report
spark-copy`) copies every table and view into a DuckDB file instead, for the DuckDB CLI or
another machine.
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
# how messages name the warehouse of the spark target
TARGET_LABEL = "the spark target"


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


class SparkConnection:
    """The Spark session behind the reports' connection interface: `execute(sql, params)`
    with `?` markers, then `description` and `fetchall()`; rows as plain Python values
    (a struct as a dict, a VARIANT as its JSON text)."""

    def __init__(self, session: Any, schema: str = "main") -> None:
        self.session = session
        self.schema = schema
        session.catalog.setCurrentDatabase(schema)  # the marts, unqualified as on DuckDB
        # a report's selects read small tables and views: Spark's 200 shuffle partitions per
        # stage would cost most of each query (44 s instead of 3 for ops_checklist here)
        session.conf.set("spark.sql.shuffle.partitions",
                         str(session.sparkContext.defaultParallelism))
        self.description: list[tuple[str]] = []
        self._rows: list[tuple] = []

    def execute(self, sql: str, params: list | None = None) -> SparkConnection:
        frame = self.session.sql(sql, args=list(params)) if params else self.session.sql(sql)
        self.description = [(field.name,) for field in frame.schema.fields]
        self._rows = [tuple(plain_value(value) for value in row) for row in frame.collect()]
        return self

    def fetchall(self) -> list[tuple]:
        return self._rows

    def fetchone(self) -> tuple | None:
        return self._rows[0] if self._rows else None

    def table_names(self) -> list[str]:
        return [t.name for t in self.session.catalog.listTables(self.schema)]

    def column_names(self, table: str) -> list[str]:
        return [c.name for c in self.session.catalog.listColumns(table, self.schema)]

    def table_comment(self, table: str) -> str | None:
        return self.session.catalog.getTable(f"{self.schema}.{table}").description

    def close(self) -> None:
        """The session stays: it is this process's, and cheap to keep until exit."""

    def __enter__(self) -> SparkConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_spark_warehouse(project_dir: Path) -> SparkConnection:
    """What the spark target built, once its last build finished (as open_warehouse)."""
    from agent_scoring.db import UnfinishedBuild, require_finished_build

    con = SparkConnection(spark_session(project_dir))
    if not con.session.catalog.tableExists("raw.builds"):
        raise UnfinishedBuild(f"{TARGET_LABEL}: no `dbt build` is recorded in it; run "
                              "`dbt build --target spark`")
    require_finished_build(con, Path(TARGET_LABEL))
    return con


def plain_value(value: Any) -> Any:
    """A Spark value as DuckDB's Python API gives it."""
    from pyspark.sql import Row

    if isinstance(value, Row):
        return {key: plain_value(item) for key, item in value.asDict().items()}
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    if isinstance(value, dict):
        return {key: plain_value(item) for key, item in value.items()}
    if hasattr(value, "toJson"):  # pyspark's VariantVal
        return value.toJson()
    return value


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
