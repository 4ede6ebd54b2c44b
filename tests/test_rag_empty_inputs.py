"""With no RAG files in the input directory the build still succeeds, with empty tables."""

from __future__ import annotations

import pytest
from agent_scoring.cli import main
from click.testing import CliRunner
from support.warehouse import build

RAG = ["tag:rag"]  # only this seeds, models and tests

MARTS = {
    "rag_judgements": 37,
    "rag_run_scores": 47,
    "rag_success_criteria": 13,
    "rag_breakdown": 16,
    "rag_dataset_coverage": 11,
    "rag_verdict_changes": 18,
    "rag_hallucination_agreement": 11,
    "report_rag__runs": 6,
}
STAGING = [
    "stg_rag__datasets",
    "stg_rag__questions",
    "stg_rag__reports",
    "stg_rag__judgements",
    "stg_rag__hallucination_labels",
]


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    work = tmp_path_factory.mktemp("rag_empty")
    inputs = work / "input"
    inputs.mkdir()
    (inputs / "unrelated.txt").write_text("not a RAG file\n", encoding="utf-8")
    # a folder with no export would score the bundled samples: none here
    no_samples = ["--vars", f"{{samples_dir: '{work / 'no-samples'}'}}"]
    return build(inputs, work, select=RAG, extra=no_samples)


@pytest.fixture(scope="module")
def con(warehouse):
    with warehouse.connect() as connection:
        yield connection


@pytest.mark.parametrize("table", [*MARTS, *STAGING])
def test_every_rag_table_exists_and_is_empty(con, table):
    assert con.execute(f"select count(*) from {table}").fetchone() == (0,)


@pytest.mark.parametrize(("table", "columns"), MARTS.items())
def test_empty_marts_keep_their_documented_columns(con, table, columns):
    assert len(con.execute(f"describe {table}").fetchall()) == columns


def test_empty_judgements_keep_their_types(con):
    types = dict(
        (name, kind) for name, kind, *_ in con.execute("describe rag_judgements").fetchall()
    )
    assert types["overall_score"] == "DOUBLE"
    assert types["passed"] == "BOOLEAN"
    assert types["faithfulness"] == "INTEGER"
    assert types["course_areas"] == "VARCHAR[]"


def test_the_build_log_says_which_files_were_missing(warehouse):
    assert "no qa_dataset*.json in" in warehouse.log
    assert "no evaluation_report*.json in" in warehouse.log


def test_score_report_has_nothing_to_write_and_says_so(warehouse, tmp_path):
    result = CliRunner().invoke(
        main, ["--agent", "rag", "--db", str(warehouse.db), "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == []
    assert "nothing written" in result.output
