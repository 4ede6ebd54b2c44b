"""`score-report` as a user runs it: files, options and one-line errors."""

from __future__ import annotations

import subprocess
import sys
import time

import duckdb
import pytest
from agent_scoring.cli import main
from agent_scoring.output import WRITTEN_LIST
from click.testing import CliRunner
from conftest import REAL_PLAN
from support.markdown import tables
from test_agent_registry import AGENTS


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_bare_run_writes_one_report_per_agent_and_file(agent_warehouse, tmp_path):
    result = run("--db", str(agent_warehouse.db), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    # (and the hidden list of what it wrote, so a later run removes reports whose export left)
    written = sorted(p.name for p in tmp_path.iterdir() if p.name != WRITTEN_LIST)
    expected = [
        "evaluation_report_sample_20251210_100000_score_summary.md",
        "evaluation_report_sample_20251211_100000_score_summary.md",
        "plan_agent_sample_score_summary.md",
        "resume_agent_published_score_summary.md",
        "resume_agent_sample_score_summary.md",
        "router_eval_result_261118_1520_score_summary.md",
        "router_eval_result_261125_1040_score_summary.md",
        "url_agent_sample_score_summary.md",
    ]
    if REAL_PLAN.exists():
        expected.insert(2, "plan_agent_260224_score_summary.md")
    assert written == expected
    lines = result.output.strip().splitlines()
    assert len(lines) == len(expected)
    assert all(line.split(": ")[0].endswith("_score_summary.md") for line in lines)


def test_every_table_in_every_report_is_well_formed(agent_warehouse, tmp_path):
    run("--db", str(agent_warehouse.db), "--out", str(tmp_path))
    for report in tmp_path.glob("*.md"):
        found = tables(report.read_text(encoding="utf-8"))
        assert found, report.name
        for table in found:
            widths = {len(row) for row in table}
            assert len(widths) == 1, (report.name, table[0])


def test_agent_and_file_options_select_one_report(agent_warehouse, tmp_path):
    result = run("--db", str(agent_warehouse.db), "--out", str(tmp_path),
                 "--agent", "resume_agent", "--file", "resume_agent_sample.csv")
    assert result.exit_code == 0
    assert [p.name for p in tmp_path.glob("*.md")] == ["resume_agent_sample_score_summary.md"]


def test_stdout_prints_instead_of_writing(agent_warehouse, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("--db", str(agent_warehouse.db), "--stdout", "--agent", "plan_agent",
                 "--file", "plan_agent_sample.csv")
    assert result.output.startswith("# 실행 에이전트 스코어링 리포트")
    assert not (tmp_path / "reports").exists()


def test_unknown_agent_is_a_usage_error_naming_the_registered_ones(agent_warehouse):
    result = CliRunner().invoke(main, ["--db", str(agent_warehouse.db), "--agent", "nope"])
    assert result.exit_code == 2
    known = ", ".join(sorted([*AGENTS, "rag"]))
    assert f"unknown agent 'nope'; known: {known}" in result.output


def test_missing_database_says_to_build(tmp_path):
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {tmp_path / 'none.duckdb'}: database not found; run `dbt build` first"]


def test_unbuilt_database_says_no_build_is_recorded(tmp_path):
    db = tmp_path / "empty.duckdb"
    duckdb.connect(str(db)).close()
    result = CliRunner().invoke(main, ["--db", str(db)])
    assert result.exit_code == 1
    assert "no `dbt build` is recorded in it; run `dbt build`" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_database_locked_by_a_running_build_is_one_line(tmp_path):
    db = tmp_path / "busy.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         f"import duckdb, time; c = duckdb.connect({str(db)!r}); print('ready', flush=True); "
         "time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        time.sleep(0.2)
        result = CliRunner().invoke(main, ["--db", str(db)])
    finally:
        holder.kill()
        holder.wait()
    assert result.exit_code == 1
    assert "locked by another process" in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--help"])
def test_help_lists_the_options(flag):
    result = CliRunner().invoke(main, [flag])
    for option in ("--agent", "--file", "--out", "--stdout", "--db", "judge"):
        assert option in result.output
