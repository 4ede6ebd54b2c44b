"""A build killed (-9) at any point - while loading, parsing or scoring - is
made whole by the next plain `dbt build`: the warehouse equals a clean build of the same
inputs. Until then `score-report` refuses it."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from agent_scoring.cli import main
from click.testing import CliRunner
from support.rebuild import (
    assert_same_warehouse,
    build,
    env_for,
    fresh_build,
    keep_as_fresh,
    project_inputs,
)
from support.warehouse import WITHOUT_DATA_TESTS, dbt_invocation


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    work = tmp_path_factory.mktemp("killed")
    inputs = project_inputs(work)
    build(work, inputs)
    keep_as_fresh(work, inputs)
    return work, inputs


@pytest.mark.parametrize("kill_at", [
    "START python table model main.export_loads",
    "START sql incremental model main.stg_exports__rows",
    "START sql incremental model main.int_plan_agent__item_scores",
])
def test_a_build_killed_at_any_point_is_made_whole_by_the_next_build(project, kill_at):
    work, inputs = project
    url = inputs / "url_agent_sample.csv"
    text = url.read_text(encoding="utf-8-sig")
    url.write_text(text.replace("https://", "http://x", 1) if "https://" in text
                   else text.replace("http://x", "https://", 1), encoding="utf-8-sig")
    command, env, run_dir = dbt_invocation(["build", *WITHOUT_DATA_TESTS],
                                           env_for(work, inputs, "w.duckdb"))
    proc = subprocess.Popen(command, cwd=run_dir, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if kill_at in line:
            os.killpg(proc.pid, signal.SIGKILL)
            break
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "".join(seen)[-3000:]
    assert_reports_refused(work)
    if "item_scores" in kill_at:
        # a `--select` build after a killed one does not make the warehouse whole
        build(work, inputs, "--select", "speed_bands")
        result = score_report(work, out="refused")
        assert result.exit_code == 1
        assert "the last whole `dbt build` did not finish" in result.output
    build(work, inputs)
    assert report_exit_codes(work) == [0, 0, 0]
    fresh_build(work, inputs)
    assert_same_warehouse(work)


def score_report(work: Path, *args: str, out: str = "reports"):
    reports = [] if args[:1] == ("check",) else ["--out", str(work / out)]
    return CliRunner().invoke(main, ["--db", str(work / "w.duckdb"), *reports, *args])


COMMANDS = [[], ["compare"], ["check", "--min-intent", "0"]]


def report_exit_codes(work: Path) -> list[int]:
    return [score_report(work, *command).exit_code for command in COMMANDS]


def assert_reports_refused(work: Path) -> None:
    """Reports, compare and the gate each refuse in one line, exit 1, writing nothing."""
    for command in COMMANDS:
        result = score_report(work, *command, out="refused")
        assert result.exit_code == 1, (command, result.output)
        assert result.output.count("\n") == 1, result.output
        assert "the last `dbt build` (started " in result.output
        assert result.output.rstrip().endswith("did not finish: run `dbt build` again")
    assert not (work / "refused").exists()

