"""The dbt unit tests of every rule. A plain `dbt build` leaves them out (selectors.yml: they
test the SQL, not the exports), so the test suite runs them, as the README says."""

from __future__ import annotations

import json
import shutil

from support.warehouse import dbt_env, run_dbt


def test_every_unit_test_passes(agent_warehouse, tmp_path):
    # a copy: the unit tests' run must not hold the shared warehouse while others read it
    db = tmp_path / "warehouse.duckdb"
    shutil.copy(agent_warehouse.db, db)
    env = dbt_env(agent_warehouse.input_dir, db, tmp_path, artifacts=True)
    proc = run_dbt(["test", "--select", "test_type:unit"], env)
    assert proc.returncode == 0, proc.stdout[-4000:]

    manifest = json.loads((tmp_path / "target" / "manifest.json").read_text(encoding="utf-8"))
    results = json.loads((tmp_path / "target" / "run_results.json").read_text(encoding="utf-8"))
    passed = {r["unique_id"] for r in results["results"] if r["status"] == "pass"}
    assert len(manifest["unit_tests"]) >= 15
    assert passed >= set(manifest["unit_tests"]), proc.stdout[-2000:]

def test_a_plain_build_leaves_the_unit_tests_out(agent_warehouse):
    assert "Using default selector scoring" in agent_warehouse.log
    assert "START unit_test" not in agent_warehouse.log
