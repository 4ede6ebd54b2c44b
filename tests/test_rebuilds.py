"""Plain dbt, incremental by file: whatever happened before, a build gives what a clean build
of the same inputs gives - after nothing changed, after a change, after a changed var (a build
killed at any point: test_killed_builds.py) - and the rules (contracts, data tests) fail every
build while they are broken."""

from __future__ import annotations

import json

import duckdb
import pytest
import yaml
from support.rebuild import (
    assert_same_warehouse,
    build,
    fresh_build,
    keep_as_fresh,
    project_inputs,
)
from support.warehouse import REPO


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    work = tmp_path_factory.mktemp("rebuilds")
    return work, project_inputs(work)


def loads(work, loader: str = "export_loads") -> dict[str, str]:
    with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
        return dict(con.execute(f"select source_file, action from {loader}").fetchall())


def test_1_a_build_with_nothing_new_reads_no_file_and_changes_nothing(project):
    work, inputs = project
    build(work, inputs)
    keep_as_fresh(work, inputs)
    log = build(work, inputs, data_tests=True)
    assert set(loads(work).values()) == {"kept"}
    assert "PASS=" in log and "WARN=2 ERROR=0" in log
    fresh_build(work, inputs)
    assert_same_warehouse(work)


def test_2_a_changed_export_gives_what_a_clean_build_gives(project):
    work, inputs = project
    plan = inputs / "plan_agent_sample.csv"
    text = plan.read_text(encoding="utf-8-sig")
    changed = text.replace('""formType"": ""SELECT""', '""formType"": ""INPUT""', 2)
    assert changed != text
    plan.write_text(changed, encoding="utf-8-sig")
    build(work, inputs)
    assert loads(work)["plan_agent_sample.csv"] == "loaded"
    fresh_build(work, inputs)
    assert_same_warehouse(work)


def test_3_a_changed_var_rescores_like_a_clean_build(project):
    work, inputs = project
    bands = "{max_response_time_sec: 30}"
    build(work, inputs, "--vars", bands)
    fresh_build(work, inputs, "--vars", bands)
    assert_same_warehouse(work)


def test_4_a_broken_rule_fails_every_build_until_fixed(project):
    work, inputs = project
    dataset = inputs / "qa_dataset_sample.json"
    original = dataset.read_text(encoding="utf-8")
    data = json.loads(original)
    data["questions"][0]["category"] = "in_domian"
    dataset.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for _ in range(2):  # the second build has nothing new and must still fail
        log = build(work, inputs, expect=1)
        assert "Failure in model stg_rag__questions" in log, log[-4000:]
        assert "CHECK constraint failed" in log
    dataset.write_text(original, encoding="utf-8")
    build(work, inputs)


def test_5_a_contract_violation_stops_the_model_before_its_rows_flow_on(project):
    work, inputs = project
    # a registry entry with an unknown consistency rule breaks the agents mart's check
    project_vars = yaml.safe_load((REPO / "dbt_project.yml").read_text(encoding="utf-8"))["vars"]
    agents = project_vars["agents"]
    agents["url_agent"]["consistency_on"] = "sideways"
    broken = json.dumps({"agents": agents}, ensure_ascii=False)
    log = build(work, inputs, "--vars", broken, "--select", "+agents+", expect=1)
    assert "CHECK constraint failed" in log
    assert "SKIP" in log
