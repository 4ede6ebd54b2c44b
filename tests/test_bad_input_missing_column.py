"""A file without a required column stops its agent's build with one line naming the file and
the column (issue 2); the file is still listed in rejected_files and the other agent builds.

``tests/corpus/files/missing_column`` holds that file and a complete resume export; it is
kept apart from the main corpus because it necessarily fails the plan agent's staging.
"""

from __future__ import annotations

import re
import shutil

import duckdb
import pytest
from corpus import make_corpus
from support.warehouse import all_rows, dbt_env, run_dbt


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    work = tmp_path_factory.mktemp("missing_column")
    inputs = work / "input"
    shutil.copytree(make_corpus.FILES / "missing_column", inputs)
    db = work / "warehouse.duckdb"
    proc = run_dbt(["build", "--exclude", "tag:rag"], dbt_env(inputs, db, work))
    return proc, inputs, db


def test_the_build_fails_with_one_line_naming_the_file_and_the_column(build):
    proc, inputs, _ = build
    assert proc.returncode != 0
    expected = (
        f'{inputs / "plan_agent_missing_raw_json.csv"}: column "Raw JSON" is missing '
        "(required for plan_agent); add it to the export or rename the header"
    )
    lines = [line.strip() for line in proc.stdout.splitlines() if expected in line]
    assert lines, proc.stdout[-4000:]
    # refused when the agent's first model reads its rows, not at compile time
    assert re.search(r"Runtime Error in model int_plan_agent__checks", proc.stdout)


def test_the_file_is_listed_in_rejected_files_and_the_resume_agent_still_builds(build):
    proc, _, db = build
    created = r"OK created sql incremental model main\.int_resume_agent__item_scores"
    assert re.search(created, proc.stdout)
    with duckdb.connect(str(db), read_only=True) as con:
        refused = all_rows(con, "select source_file, reject_code, csv_records from rejected_files")
        resume_rows = con.sql("select count(*) from int_resume_agent__item_scores").fetchall()
    assert refused == [{
        "source_file": "plan_agent_missing_raw_json.csv",
        "reject_code": "missing_column",
        "csv_records": 4,
    }]
    assert resume_rows == [(4,)]
