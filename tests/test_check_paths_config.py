"""The README's recipe: one row in seeds/check_paths.csv makes dataKey checks also accept
uiValue.value.nodeDataSet.dataKey — no code change, and a plain (incremental) `dbt build`
re-scores files that were already scored with the old rules."""

from __future__ import annotations

import shutil

import duckdb
from support.warehouse import REAL_DATA, REPO, SAMPLES, copy_inputs, dbt_env, run_dbt

NESTED_ROW = "dataKey,ui_item,$.value.nodeDataSet.dataKey,equals\n"


def data_key_checks(db) -> tuple[int, int]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(
            "select count_if(passed), count(*) from check_results where check_kind = 'dataKey'"
        ).fetchone()


def test_adding_the_nested_data_key_path_is_one_seed_row(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(REPO, project, ignore=shutil.ignore_patterns(
        ".git", ".venv", "target", "logs", "reports", "*.duckdb", "tests", "docs"))
    real = REAL_DATA / "plan_agent_260224.csv"
    source = real if real.exists() else SAMPLES / "plan_agent_sample.csv"
    inputs = copy_inputs([source], tmp_path / "input")
    db = tmp_path / "w.duckdb"
    env = dbt_env(inputs, db, tmp_path)
    args = ["build", "--select", "+check_results", "--project-dir", str(project),
            "--profiles-dir", str(project)]

    proc = run_dbt(args, env)
    assert proc.returncode == 0, proc.stdout[-4000:]
    before = data_key_checks(db)

    with (project / "seeds" / "check_paths.csv").open("a", encoding="utf-8") as seeds:
        seeds.write(NESTED_ROW)
    proc = run_dbt(args, env)
    assert proc.returncode == 0, proc.stdout[-4000:]
    after = data_key_checks(db)

    if source == real:
        # SCORING §2.2: none of the 146 pass at value.dataKey, 78 at the nested path
        assert before == (0, 146)
        assert after == (78, 146)
    else:
        assert after[0] > before[0]
