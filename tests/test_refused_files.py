"""Bad input stays the file's problem (issue 39): a plan export without `Query ID` and one
whose every row is rejected sit beside a good plan export. The build succeeds and names both
in its last lines; both are in rejected_files and input_files with their reasons; the good
file's report is byte-identical to a build without them; `score-report`, `check` and
`compare` write what they can, name each refused file on stderr and exit 1.
"""

from __future__ import annotations

import re
import shutil

import duckdb
import pytest
from agent_scoring.cli import main
from click.testing import CliRunner
from corpus import make_corpus
from support.warehouse import SAMPLES, all_rows, dbt_env, run_dbt

GOOD = "plan_agent_good.csv"
NO_QUERY_ID = "plan_agent_no_query_id.csv"
ALL_REJECTED = "plan_agent_all_rejected.csv"


def sample_text() -> str:
    return (SAMPLES / "plan_agent_sample.csv").read_text(encoding="utf-8-sig")


def without_query_id() -> str:
    header, rest = sample_text().split("\n", 1)
    assert ",Query ID," in header
    return header.replace(",Query ID,", ",QueryID,") + "\n" + rest


def build(work, files: dict[str, str]):
    inputs = work / "input"
    inputs.mkdir(parents=True)
    for name, text in files.items():
        (inputs / name).write_text(text, encoding="utf-8")
    db = work / "warehouse.duckdb"
    # the whole project (a bare `score-report` also reports RAG runs: here none)
    proc = run_dbt(["build"], dbt_env(inputs, db, work))
    assert proc.returncode == 0, proc.stdout[-4000:]
    return proc, inputs, db


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    return build(tmp_path_factory.mktemp("good_alone"), {GOOD: sample_text()})


@pytest.fixture(scope="module")
def beside(tmp_path_factory):
    # every row's 방/반복 unreadable (1/1 -> 1x1): read whole, every row rejected
    bad_rounds = re.sub(r",(\d+)/(\d+),", r",\1x\2,", sample_text())
    return build(tmp_path_factory.mktemp("beside_bad"), {
        GOOD: sample_text(), NO_QUERY_ID: without_query_id(), ALL_REJECTED: bad_rounds,
    })


def report(db, out) -> tuple[object, str]:
    result = CliRunner().invoke(main, ["--db", str(db), "--out", str(out), "--agent", "plan_agent"])
    return result, (out / "plan_agent_good_score_summary.md").read_text(encoding="utf-8")


def test_the_build_names_each_refused_file_and_why_at_its_end(beside):
    proc, inputs, _ = beside
    # the on-run-end hook's lines: after every model and test, just before dbt's summary
    lines = proc.stdout.splitlines()
    finished = max(i for i, line in enumerate(lines) if "Finished running" in line)
    tail = lines[finished - 8:finished]
    assert any(f"refused {inputs / NO_QUERY_ID}: column \"Query ID\" is missing" in line
               for line in tail), "\n".join(tail)
    assert any(f"refused {inputs / ALL_REJECTED}: every one of its" in line for line in tail)


def test_refused_files_are_listed_with_their_reasons(beside):
    _, _, db = beside
    with duckdb.connect(str(db), read_only=True) as con:
        refused = all_rows(con, "select source_file, reject_code, reject_reason "
                                "from rejected_files order by 1")
        files = all_rows(con, "select source_file, rows_scored, rows_rejected, file_reject_code "
                              "from input_files order by 1")
    assert [(r["source_file"], r["reject_code"]) for r in refused] == [
        (ALL_REJECTED, "all_rows_rejected"), (NO_QUERY_ID, "missing_column")]
    assert refused[0]["reject_reason"].startswith("every one of its ")
    assert "the first: 방/반복 \"1x1\" is not room/repeat like 1/1" in refused[0]["reject_reason"]
    assert refused[1]["reject_reason"].startswith('column "Query ID" is missing (required for '
                                                  "plan_agent)")
    by_file = {f["source_file"]: f for f in files}
    assert by_file[GOOD]["rows_scored"] > 0 and by_file[GOOD]["file_reject_code"] is None
    assert by_file[ALL_REJECTED]["rows_scored"] == 0
    assert by_file[NO_QUERY_ID]["file_reject_code"] == "missing_column"


def test_the_good_file_reports_byte_identically_and_score_report_exits_1(alone, beside,
                                                                          tmp_path):
    first, expected = report(alone[2], tmp_path / "alone")
    assert first.exit_code == 0, first.output
    result, text = report(beside[2], tmp_path / "beside")
    assert text == expected
    assert result.exit_code == 1
    assert f"refused {NO_QUERY_ID} (plan_agent): column \"Query ID\" is missing" in result.stderr
    assert f"refused {ALL_REJECTED} (plan_agent): every one of its" in result.stderr
    assert "2 file(s) refused, not scored" in result.stderr


@pytest.mark.parametrize("command", [["check", "--min-intent", "0"], ["compare", "--stdout"]])
def test_check_and_compare_name_the_refused_files_and_exit_1(beside, command):
    result = CliRunner().invoke(main, [*command, "--db", str(beside[2])])
    assert result.exit_code == 1, result.output
    assert f"refused {NO_QUERY_ID} (plan_agent)" in result.stderr
    assert f"refused {ALL_REJECTED} (plan_agent)" in result.stderr


def test_the_site_lists_the_refused_files_names_them_and_exits_1(beside, tmp_path):
    result = CliRunner().invoke(main, ["site", "--db", str(beside[2]), "--out",
                                       str(tmp_path / "site")])
    assert result.exit_code == 1, result.output
    assert f"refused {NO_QUERY_ID} (plan_agent)" in result.stderr
    assert "2 file(s) refused, not scored" in result.stderr
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert NO_QUERY_ID in index and ALL_REJECTED in index and "missing_column" in index


def test_a_report_whose_export_is_gone_is_removed_by_the_next_whole_run(beside, tmp_path):
    out = tmp_path / "reports"
    CliRunner().invoke(main, ["--db", str(beside[2]), "--out", str(out)])
    gone = out / "plan_agent_gone_score_summary.md"
    gone.write_text("old", encoding="utf-8")
    mine = out / "notes.md"
    mine.write_text("mine", encoding="utf-8")
    listing = out / ".score-report-written"
    listing.write_text(listing.read_text(encoding="utf-8") + gone.name + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--db", str(beside[2]), "--out", str(out)])
    assert f"{gone}: removed" in result.output
    assert not gone.exists() and mine.exists()
    assert (out / "plan_agent_good_score_summary.md").exists()


def test_the_corpus_file_without_raw_json_is_refused_beside_a_resume_export(tmp_path):
    inputs = tmp_path / "input"
    shutil.copytree(make_corpus.FILES / "missing_column", inputs)
    db = tmp_path / "warehouse.duckdb"
    proc = run_dbt(["build", "--exclude", "tag:rag"], dbt_env(inputs, db, tmp_path))
    assert proc.returncode == 0, proc.stdout[-4000:]
    with duckdb.connect(str(db), read_only=True) as con:
        refused = all_rows(con, "select source_file, reject_code, csv_records from rejected_files")
        resume_rows = con.sql("select count(*) from int_resume_agent__item_scores").fetchall()
    assert refused == [{"source_file": "plan_agent_missing_raw_json.csv",
                        "reject_code": "missing_column", "csv_records": 4}]
    assert resume_rows == [(4,)]
