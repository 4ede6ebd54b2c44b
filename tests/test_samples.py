"""The bundled samples are a default, not data: scored while the input folder holds no
export, gone from every mart as soon as it holds one."""

from __future__ import annotations

import re
import shutil

import duckdb
from agent_scoring.cli import main
from click.testing import CliRunner
from conftest import REAL_PLAN
from support.warehouse import REPO, SAMPLES, WITHOUT_DATA_TESTS, dbt_env, run_dbt


def test_samples_are_scored_until_the_input_folder_holds_an_export(tmp_path):
    inputs = tmp_path / "input"
    inputs.mkdir()
    db = tmp_path / "w.duckdb"
    env = dbt_env(inputs, db, tmp_path)
    samples = ["--vars", f"{{samples_dir: '{SAMPLES}'}}"]

    summaries = []

    def build_and_list_runs(*extra: str) -> list[str]:
        proc = run_dbt(["build", *samples, *extra], env)
        assert proc.returncode == 0, proc.stdout[-3000:]
        summaries.append(re.search(r"PASS=\d+ WARN=\d+", proc.stdout).group())
        with duckdb.connect(str(db), read_only=True) as con:
            return [r[0] for r in con.execute("select source_file from runs order by 1")
                    .fetchall()]

    assert build_and_list_runs() == [
        "plan_agent_sample.csv", "resume_agent_sample.csv", "router_eval_result_261118_1520.xlsx",
        "router_eval_result_261125_1040.xlsx", "url_agent_sample.csv"]
    # what the README says `dbt build` on the samples ends with
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"samples ends with `{summaries[0]}`" in " ".join(readme.split())
    # the user's own export, in the platform's format
    own = REAL_PLAN if REAL_PLAN.exists() else SAMPLES / "plan_agent_sample.csv"
    shutil.copy(own, inputs / "plan_agent_0227.csv")
    # which runs are left is the subject here, not the data tests
    assert build_and_list_runs(*WITHOUT_DATA_TESTS) == ["plan_agent_0227.csv"]
    with duckdb.connect(str(db), read_only=True) as con:
        left = con.execute("select count(*) from item_scores where source_file like '%sample%'"
                           ).fetchone()[0]
        rag = con.execute("select count(*) from rag_run_scores").fetchone()[0]
    assert left == rag == 0
    runner = CliRunner()
    check = runner.invoke(main, ["--db", str(db), "check", "--min-intent", "0"])
    compare = runner.invoke(main, ["--db", str(db), "compare", "--stdout"])
    for result in (check, compare):
        assert result.exit_code == 0, result.output
        assert "plan_agent_0227.csv" in result.output and "_sample" not in result.output
