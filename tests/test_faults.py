"""Faults as they happen on a laptop, a CI runner or a shared drive never end in a wrong
answer with exit 0: each gives one line naming what is wrong, and loses no row."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import unicodedata

import duckdb
import pytest
from agent_scoring.cli import main
from agent_scoring.output import WRITTEN_LIST
from click.testing import CliRunner
from support.rebuild import build, project_inputs

MARTS = ["item_scores", "runs", "item_changes", "rejected_files"]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    work = tmp_path_factory.mktemp("faults")
    inputs = project_inputs(work)
    build(work, inputs)
    return work, inputs


def counts(db) -> dict[str, int]:
    with duckdb.connect(str(db), read_only=True) as con:
        return {t: con.execute(f"select count(*) from {t}").fetchone()[0]
                for t in [*MARTS, "export_loads", "stg_exports__rows"]}


def score_report(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_missing_input_folder_fails_the_build_in_one_line_and_changes_nothing(project):
    work, inputs = project
    db = work / "w.duckdb"
    before = counts(db)
    moved = inputs.with_name("input-unmounted")
    inputs.rename(moved)
    try:
        log = build(work, inputs, expect=1)
    finally:
        moved.rename(inputs)
    line = (f"Invalid Input Error: input folder {inputs} does not exist (set vars.input_dir or "
            "AGENT_SCORING_INPUT_DIR); nothing was loaded or removed")
    assert log.count(line) == 1
    assert "Traceback" not in log
    assert counts(db) == before
    refused = score_report("--db", str(db), "--out", str(work / "refused"))
    assert refused.exit_code == 1
    assert refused.output == (f"Error: {db}: the last `dbt build` failed (export_loads: {line}):"
                              " fix it and run `dbt build` again\n")
    build(work, inputs)
    assert counts(db) == before
    assert score_report("--db", str(db), "--out", str(work / "reports")).exit_code == 0


def test_odd_entries_are_listed_and_an_nfd_name_answers_to_either_form(project, tmp_path):
    work, inputs = project
    odd = {
        "plan_agent_dangling.csv": "dangling_symlink",
        "plan_agent_loop.csv": "symlink_loop",
        "plan_agent_fifo.csv": "not_a_file",
        "url_agent_folder.csv": "not_a_file",
        "unknown_agent_x.csv": "unclaimed",
    }
    (inputs / "unknown_agent_x.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (inputs / "plan_agent_dangling.csv").symlink_to(tmp_path / "gone.csv")
    (inputs / "plan_agent_loop.csv").symlink_to(inputs / "plan_agent_loop.csv")
    os.mkfifo(inputs / "plan_agent_fifo.csv")
    (inputs / "url_agent_folder.csv").mkdir()
    nfc = "url_agent_회귀.csv"
    nfd = inputs / unicodedata.normalize("NFD", nfc)  # as macOS writes it
    shutil.copy(inputs / "url_agent_sample.csv", nfd)
    db = str(work / "w.duckdb")
    try:
        log = build(work, inputs)
        with duckdb.connect(db, read_only=True) as con:
            listed = dict(con.execute("select source_file, reject_code from rejected_files "
                                      "where source_file like '%\\_agent\\_%' escape '\\'")
                          .fetchall())
            runs = [r[0] for r in con.execute("select source_file from runs").fetchall()]
        by_name = {form: score_report("--db", db, "--stdout", "--file", form(nfc))
                   for form in (str, lambda name: unicodedata.normalize("NFD", name))}
        compared = score_report("--db", db, "compare", "--stdout", "--head", nfd.name)
        report = score_report("--db", db, "--stdout", "--file", "plan_agent_sample.csv")
    finally:
        for name in [*odd, nfd.name]:
            path = inputs / name
            path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
        build(work, inputs)
    assert {name: listed.get(name) for name in odd} == odd
    assert all(f"{'unclaimed' if code == 'unclaimed' else 'refused'} {inputs / name}: " in log
               for name, code in odd.items())
    assert ("- 입력 폴더에서 아무것도 읽지 않은 파일 (에이전트·RAG 파일 이름 패턴에 맞지 않음): "
            "`unknown_agent_x.csv`") in report.output
    assert nfc in runs and nfd.name not in runs
    for result in [*by_name.values(), compared]:
        assert "이동 에이전트" in result.output
    # a report of one named file says nothing of the others; compare names every refused file
    assert all(result.exit_code == 0 for result in by_name.values())
    assert compared.exit_code == 1
    assert all(f"refused {name} (" in compared.stderr for name in odd)


def test_a_failed_report_write_names_the_path_and_the_others_are_still_written(
        agent_warehouse, tmp_path, monkeypatch):
    from agent_scoring import output

    real_fdopen = output.os.fdopen

    class FullDisk:
        def __init__(self, stream):
            self.stream = stream

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

        def write(self, text):
            self.stream.write(text[: len(text) // 2])
            raise OSError(28, "No space left on device")

    def fdopen(handle, *args, **kwargs):
        name = os.readlink(f"/proc/self/fd/{handle}")
        stream = real_fdopen(handle, *args, **kwargs)
        return FullDisk(stream) if ".url_agent_sample_" in name else stream

    monkeypatch.setattr(output.os, "fdopen", fdopen)
    out = tmp_path / "reports"
    (out).mkdir()
    (out / "url_agent_sample_score_summary.md").write_text("last week's report\n")
    result = score_report("--db", str(agent_warehouse.db), "--out", str(out))
    assert result.exit_code == 1
    target = out / "url_agent_sample_score_summary.md"
    assert f"{target}: not written (No space left on device)\n" in result.output
    assert result.output.endswith("Error: 1 report(s) failed: url_agent_sample.csv; "
                                  "the others were written\n")
    # the old report stays whole, no temporary file is left, every other report is written
    assert target.read_text() == "last week's report\n"
    assert not [p for p in out.iterdir() if p.name.startswith(".") and p.name != WRITTEN_LIST]
    assert len(list(out.glob("*.md"))) >= 6


@pytest.fixture()
def tiny_disk(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.system(f"mount -t tmpfs -o size=4k tmpfs {folder} 2>/dev/null") != 0:
        pytest.skip("cannot mount a tmpfs here (the simulated full disk above still runs)")
    yield folder
    os.system(f"umount {folder}")


def test_reports_on_a_full_disk_fail_each_in_one_line_and_leave_nothing_half_written(
        agent_warehouse, tiny_disk):
    (tiny_disk / "filler").write_bytes(b"x" * 4096)
    result = score_report("--db", str(agent_warehouse.db), "--out", str(tiny_disk))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert all(line.startswith(f"{tiny_disk}/") and line.endswith(
        "_score_summary.md: not written (No space left on device)") for line in lines[:-1])
    assert len(lines) >= 7
    assert lines[-1].startswith("Error: ") and "the others were written" in lines[-1]
    assert [p.name for p in tiny_disk.iterdir()] == ["filler"]


def damage(db, table: str) -> None:
    """Overwrite the start of every block that holds `table` (DuckDB: a 12 KB header, then
    256 KB blocks), as a bad disk sector or an interrupted copy would."""
    with duckdb.connect(str(db), read_only=True) as con:
        blocks = [r[0] for r in con.execute(
            f"select distinct block_id from pragma_storage_info('{table}') where block_id >= 0"
        ).fetchall()]
    assert blocks
    with open(db, "r+b") as handle:
        for block in blocks:
            handle.seek(12288 + block * 262144 + 64)
            handle.write(os.urandom(4096))


def test_a_damaged_warehouse_says_so_in_one_line_on_reports_and_on_build(project):
    work, inputs = project
    db = work / "damaged.duckdb"
    shutil.copy(work / "w.duckdb", db)
    # what the item_scores view reads (the build, compare and check read it), and a mart the
    # report reads
    damage(db, "int_plan_agent__item_scores")
    damage(db, "category_failures")
    advice = ("delete it and run `dbt build`, which rebuilds everything from the exports in "
              "the input folder")
    result = score_report("--db", str(db), "--out", str(work / "damaged-reports"))
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {db} is damaged (Corrupt database file: ")
    assert result.output.endswith(f"): {advice}\n") and result.output.count("\n") == 1
    assert not (work / "damaged-reports").exists()
    log = build(work, inputs, db="damaged.duckdb", expect=1)
    # named as the profile names it (the test builds name it relative to their folder)
    assert f"{db.name} is damaged (a block does not match its checksum): {advice}" in log
    for command in (["compare", "--stdout"], ["check", "--min-intent", "0"]):
        result = score_report("--db", str(db), *command)
        assert result.exit_code == 1, result.output
        assert result.output.startswith(f"Error: {db} is damaged (Corrupt database file: ")


def test_a_build_on_a_warehouse_held_open_elsewhere_fails_in_one_line(project):
    work, inputs = project
    holder = subprocess.Popen(
        [sys.executable, "-c",
         f"import duckdb, time; c = duckdb.connect({str(work / 'w.duckdb')!r}, read_only=True)"
         "; print('ready', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        log = build(work, inputs, expect=2)
    finally:
        holder.kill()
        holder.wait()
    assert (f"{work / 'w.duckdb'} is in use by python{sys.version_info.major}."
            f"{sys.version_info.minor} (PID {holder.pid}): wait for it to finish, or close it "
            "(a DuckDB session or notebook left open), then run `dbt build` again") in log
    assert "Traceback" not in log and len(log.splitlines()) < 20


def test_the_gate_reads_the_warehouse_named_before_or_after_check_and_no_other(
        agent_warehouse, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ./agent_scoring.duckdb to fall back on
    monkeypatch.delenv("AGENT_SCORING_DB", raising=False)
    db, missing = str(agent_warehouse.db), str(tmp_path / "nonexistent.duckdb")
    before = score_report("--db", db, "check", "--min-intent", "0")
    after = score_report("check", "--db", db, "--min-intent", "0")
    assert before.exit_code == after.exit_code == 0, before.output
    assert before.output == after.output and "PASS: 0 of" in before.output
    for args in (["--db", missing, "check", "--min-intent", "0"],
                 ["check", "--db", missing, "--min-intent", "0"]):
        result = score_report(*args)
        assert result.exit_code == 1
        assert result.output == f"Error: {missing}: database not found; run `dbt build` first\n"
    both = score_report("--db", db, "check", "--db", missing, "--min-intent", "0")
    assert both.exit_code == 2
    assert "Error: --db is given both before and after `check`: give it once" in both.output
    compared = score_report("--db", missing, "--out", str(tmp_path), "compare")
    assert compared.exit_code == 1 and "database not found" in compared.output
    assert score_report("--file", "x.csv", "check", "--min-intent", "0").exit_code == 2
