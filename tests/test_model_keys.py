"""Every model has a primary key: a `primary_key` constraint that DuckDB enforces at insert,
or key tests (a second unique key may have its own), never both. It is
dbt-project-evaluator's primary-key rule with constraints counted (that rule counts tests
only and is turned off in dbt_project.yml; docs/builds.md)."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest
from support.warehouse import dbt_env, run_dbt


def manifest_of(warehouse) -> dict:
    return json.loads((warehouse.work / "target" / "manifest.json").read_text(encoding="utf-8"))


def key_constraint(node: dict) -> list[str] | None:
    for constraint in node.get("constraints") or []:
        if constraint["type"] == "primary_key":
            return list(constraint["columns"])
    for name, column in node["columns"].items():
        if any(c["type"] == "primary_key" for c in column.get("constraints") or []):
            return [name]
    return None


def key_tests(manifest: dict) -> dict[str, list[str]]:
    """Model id → its key tests: unique_combination_of_columns, or `unique` on a column that
    a not_null constraint or test, or a `holds` test's `<column> is not null`, also holds."""
    tests = [n for n in manifest["nodes"].values()
             if n["resource_type"] == "test"
             and (n.get("attached_node") or "").startswith("model.")]
    not_null = {(n["attached_node"], n["test_metadata"]["kwargs"].get("column_name"))
                for n in tests if (n.get("test_metadata") or {}).get("name") == "not_null"}
    for n in tests:  # a `holds` test's `<column> is not null`
        if (n.get("test_metadata") or {}).get("name") == "holds":
            for expression in n["test_metadata"]["kwargs"].get("expressions") or []:
                if expression.endswith(" is not null") and " " not in expression[:-12]:
                    not_null.add((n["attached_node"], expression[:-12]))
    found: dict[str, list[str]] = {}
    for node in tests:
        meta = node.get("test_metadata") or {}
        model = manifest["nodes"][node["attached_node"]]
        if meta.get("name") == "unique_combination_of_columns":
            found.setdefault(model["unique_id"], []).append(node["name"])
        elif meta.get("name") == "unique":
            column = meta["kwargs"]["column_name"]
            constrained = any(c["type"] == "not_null"
                              for c in model["columns"].get(column, {}).get("constraints") or [])
            if constrained or (model["unique_id"], column) in not_null:
                found.setdefault(model["unique_id"], []).append(node["name"])
    return found


def test_every_model_has_a_primary_key_as_a_constraint_or_as_tests(agent_warehouse):
    manifest = manifest_of(agent_warehouse)
    tests = key_tests(manifest)
    problems, constrained = [], 0
    for node in manifest["nodes"].values():
        if node["resource_type"] != "model":
            continue
        constraint, named = key_constraint(node), tests.get(node["unique_id"], [])
        enforced = (node["config"]["contract"]["enforced"]
                    and node["config"]["materialized"] in ("table", "incremental"))
        if constraint and not enforced:
            problems.append(f"{node['name']}: a key constraint DuckDB does not enforce")
        if bool(constraint) == bool(named):
            problems.append(f"{node['name']}: constraint {constraint}, tests {named}")
        constrained += bool(constraint)
    assert problems == []
    assert constrained >= 40  # the tables with a row per run, file or figure


def test_each_key_constraint_is_in_duckdbs_catalog(agent_warehouse, con):
    manifest = manifest_of(agent_warehouse)
    declared = {node["alias"]: key_constraint(node) for node in manifest["nodes"].values()
                if node["resource_type"] == "model" and key_constraint(node)}
    held = {table: list(columns) for table, columns in con.execute(
        "select table_name, constraint_column_names from duckdb_constraints() "
        "where constraint_type = 'PRIMARY KEY'").fetchall()}
    assert {table: held.get(table) for table in declared} == declared


@pytest.mark.parametrize("table", ["runs", "platform_summary", "report_tracks"])
def test_a_repeated_key_is_refused_as_it_is_inserted(agent_warehouse, tmp_path, table):
    copy = tmp_path / "copy.duckdb"
    shutil.copy(agent_warehouse.db, copy)
    with duckdb.connect(str(copy)) as con:
        assert con.execute(f"select count(*) from {table}").fetchone()[0] > 0
        with pytest.raises(duckdb.ConstraintException, match="(?i)primary key|duplicate key"):
            con.execute(f"insert into {table} select * from {table} limit 1")


@pytest.mark.parametrize("repeated", [False, True])
def test_a_table_made_before_its_key_was_declared_gets_it_on_its_next_build(
        agent_warehouse, tmp_path, repeated):
    """An incremental table keeps the constraints it was made with: one an earlier version
    made without its key gets it from the pre-hook keep_primary_key, or fails on a repeat."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(agent_warehouse.db, copy)
    with duckdb.connect(str(copy)) as con:
        con.execute("create table earlier as select * from platform_summary")
        if repeated:
            con.execute("insert into earlier select * from earlier limit 1")
        con.execute("drop table platform_summary")
        con.execute("alter table earlier rename to platform_summary")
    proc = run_dbt(["run", "--select", "platform_summary"],
                   dbt_env(agent_warehouse.input_dir, copy, tmp_path))
    if repeated:
        assert proc.returncode != 0
        assert "Runtime Error in model platform_summary" in proc.stdout
        assert "Constraint Error: Data contains duplicates" in proc.stdout
        return
    assert proc.returncode == 0, proc.stdout[-3000:]
    with duckdb.connect(str(copy), read_only=True) as con:
        assert con.execute(
            "select constraint_column_names from duckdb_constraints() where table_name = "
            "'platform_summary' and constraint_type = 'PRIMARY KEY'").fetchall() == [
            (["agent", "source_file"],)]
