"""Incremental builds keyed by source file: a new export is parsed alone, the past is not
re-read, a changed file replaces its rows, a deleted one disappears, --full-refresh works."""

from __future__ import annotations

import csv
import os
import shutil

import pytest
from support.warehouse import SAMPLES, WITHOUT_DATA_TESTS, dbt_env, run_dbt

PLAN = SAMPLES / "plan_agent_sample.csv"
RESUME = SAMPLES / "resume_agent_sample.csv"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    work = tmp_path_factory.mktemp("incremental")
    inputs = work / "input"
    inputs.mkdir()
    shutil.copy(PLAN, inputs / "plan_agent_a.csv")
    shutil.copy(RESUME, inputs / "resume_agent_b.csv")
    return work, inputs, dbt_env(inputs, work / "w.duckdb", work)


def build(env, *extra: str) -> None:
    # the rows each build keeps are the subject: the samples' data tests run elsewhere
    proc = run_dbt(["build", "--exclude", "tag:rag", *WITHOUT_DATA_TESTS, *extra], env)
    assert proc.returncode == 0, proc.stdout[-5000:]


def counts(work) -> dict[str, int]:
    import duckdb

    with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
        found = con.execute(
            "select source_file, count(*) from item_scores group by 1 order by 1"
        ).fetchall()
    return dict(found)


def query(work, sql: str) -> list[tuple]:
    import duckdb

    with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_1_clean_build_scores_both_files(project):
    work, _, env = project
    build(env)
    assert counts(work) == {"plan_agent_a.csv": 40, "resume_agent_b.csv": 24}
    assert query(work, "select count(*) from stg_exports__rows "
                       "where reject_code = 'duplicate_item_id'") == [(0,)]
    # the listing is export_loads' own table: no model writes a table of `raw` (the build
    # log, raw.builds, is the hooks')
    assert query(work, "select table_name from duckdb_tables() where schema_name = 'raw'"
                 ) == [("builds",)]


def test_2_a_new_file_is_added_without_rereading_the_past(project):
    work, inputs, env = project
    before = query(work, "select * from round_scores where source_file = 'plan_agent_a.csv' "
                         "order by all")
    # Overwrite the old file with blanks of the same size and modification time: if the
    # build re-read it, its scores would change.
    old = inputs / "plan_agent_a.csv"
    stat = old.stat()
    old.write_bytes(b" " * stat.st_size)
    os.utime(old, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    shutil.copy(PLAN, inputs / "plan_agent_c.csv")
    build(env)
    assert counts(work) == {"plan_agent_a.csv": 40, "plan_agent_c.csv": 40,
                            "resume_agent_b.csv": 24}
    after = query(work, "select * from round_scores where source_file = 'plan_agent_a.csv' "
                        "order by all")
    assert after == before
    shutil.copy(PLAN, old)  # restore for the steps below (new mtime: read again)


def test_3_a_changed_file_replaces_its_rows(project):
    work, inputs, env = project
    target = inputs / "resume_agent_b.csv"
    with RESUME.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    with target.open("w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle, lineterminator="\r\n").writerows(rows[:6])  # header + 5 rows
    build(env)
    assert counts(work)["resume_agent_b.csv"] == 5
    assert query(work, "select sum(item_count) from round_scores "
                       "where source_file = 'resume_agent_b.csv' and track = 'all'") == [(5,)]


def test_4_a_deleted_file_disappears_from_every_mart(project):
    work, inputs, env = project
    (inputs / "plan_agent_c.csv").unlink()
    build(env)
    assert "plan_agent_c.csv" not in counts(work)
    for mart in ("check_results", "round_scores", "set_scores", "consistency",
                 "query_consistency"):
        assert query(work, f"select count(*) from {mart} "
                           "where source_file = 'plan_agent_c.csv'") == [(0,)], mart


def rounded(rows: list[tuple]) -> list[tuple]:
    """Float sums differ in the last bits with the order rows were stored in."""
    return [tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in rows]


def test_5_full_refresh_gives_the_same_figures(project):
    work, _, env = project
    before = rounded(query(work, "select * from set_scores order by all"))
    build(env, "--full-refresh")
    assert rounded(query(work, "select * from set_scores order by all")) == before
    assert counts(work) == {"plan_agent_a.csv": 40, "resume_agent_b.csv": 5}


def test_6_a_file_refused_as_ambiguous_is_one_row_and_is_not_read_again(project):
    """A quote that never closes mid-file: the settle refuses the file whole; one
    ambiguous_records row stands in for its rows in staging (no record of it is scored or
    listed in rejected_rows), and its fingerprint there keeps the next build from reading
    it again."""
    from corpus import make_corpus

    work, inputs, env = project
    name = "plan_agent_unterminated_quote.csv"
    shutil.copy(make_corpus.FILES / "main" / name, inputs / name)
    build(env)
    assert query(work, "select reject_code from rejected_files "
                       f"where source_file = '{name}'") == [("ambiguous_records",)]
    [(record_no, line_no, code, records)] = query(
        work, "select record_no, line_no, reject_code, file_records "
              f"from stg_exports__rows where source_file = '{name}'")
    assert (record_no, line_no, code) == (None, None, "ambiguous_records") and records > 0
    for mart in ("item_scores", "rejected_rows"):
        assert query(work, f"select count(*) from {mart} "
                           f"where source_file = '{name}'") == [(0,)], mart
    build(env)
    [compiled] = (work / "target" / "run").rglob("stg_exports__rows.sql")
    assert name not in compiled.read_text(encoding="utf-8")
    assert query(work, "select reject_code from rejected_files "
                       f"where source_file = '{name}'") == [("ambiguous_records",)]
    (inputs / name).unlink()
