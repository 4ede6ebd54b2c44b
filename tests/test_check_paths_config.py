"""The README's recipe: one row in seeds/check_paths.csv makes dataKey checks also accept
uiValue.value.nodeDataSet.dataKey — no code change."""

from __future__ import annotations

import shutil

from support.warehouse import REAL_DATA, REPO, SAMPLES, copy_inputs, dbt_env, run_dbt

NESTED_ROW = "dataKey,ui_item,$.value.nodeDataSet.dataKey,equals\n"


def test_adding_the_nested_data_key_path_is_one_seed_row(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(REPO, project, ignore=shutil.ignore_patterns(
        ".git", ".venv", "target", "logs", "reports", "*.duckdb", "tests", "docs"))
    with (project / "seeds" / "check_paths.csv").open("a", encoding="utf-8") as seeds:
        seeds.write(NESTED_ROW)
    real = REAL_DATA / "plan_agent_260224.csv"
    source = real if real.exists() else SAMPLES / "plan_agent_sample.csv"
    inputs = copy_inputs([source], tmp_path / "input")
    db = tmp_path / "w.duckdb"
    env = dbt_env(inputs, db, tmp_path)
    proc = run_dbt(["build", "--select", "+check_results", "--project-dir", str(project),
                    "--profiles-dir", str(project)], env)
    assert proc.returncode == 0, proc.stdout[-4000:]

    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        passed, total = con.execute(
            "select count_if(passed), count(*) from check_results where check_kind = 'dataKey'"
        ).fetchone()
    if source == real:
        # SCORING §2.2: 78 of the 146 dataKey checks of the real file pass at the nested path
        assert (passed, total) == (78, 146)
    else:
        assert passed > 0
