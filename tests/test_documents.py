"""The RAG files as DuckDB reads them where they lie (base_rag__documents): each dataset,
judge report and label file is one document of JSON text, or refused with why. The model's
SQL is compiled once for a folder of this test's own and run on files written there; what
the RAG models then read from it is tested in test_rag_*."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.warehouse import dbt_env, run_dbt

MODEL = "base_rag__documents"


@pytest.fixture(scope="module")
def folder_sql(tmp_path_factory) -> tuple[Path, str]:
    """(input folder, the model's select compiled for it); the samples folder is empty."""
    work = tmp_path_factory.mktemp("documents")
    inputs, samples = work / "input", work / "samples"
    inputs.mkdir()
    samples.mkdir()
    env = dbt_env(inputs, work / "w.duckdb", work)
    proc = run_dbt(["compile", "--select", MODEL, "--vars", f"{{samples_dir: '{samples}'}}"],
                   env)
    assert proc.returncode == 0, proc.stdout[-3000:]
    compiled = next((work / "target" / "compiled").rglob(f"{MODEL}.sql")).read_text("utf-8")
    return inputs, compiled


@pytest.fixture()
def folder(folder_sql):
    inputs, _ = folder_sql
    for entry in inputs.iterdir():
        shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    return inputs


def read(folder_sql) -> dict[str, dict]:
    with duckdb.connect() as con:
        cursor = con.execute(folder_sql[1])
        names = [d[0] for d in cursor.description]
        return {row[2]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}


def test_each_kind_is_one_json_document_and_other_files_are_left_alone(folder, folder_sql):
    (folder / "qa_dataset_v1.json").write_text('{"version": "1", "questions": []}', "utf-8")
    (folder / "evaluation_report_1.json").write_bytes(b'\xef\xbb\xbf{"results": []}')
    (folder / "notes.txt").write_text("not read", "utf-8")
    rows = read(folder_sql)
    assert sorted(rows) == ["evaluation_report_1.json", "qa_dataset_v1.json"]
    assert rows["qa_dataset_v1.json"]["kind"] == "datasets"
    assert json.loads(rows["evaluation_report_1.json"]["document"]) == {"results": []}


def test_a_label_csv_is_an_array_of_rows_keyed_by_trimmed_lower_case_header(folder, folder_sql):
    (folder / "rag_hallucination_labels.csv").write_text(
        "Question_ID ,HALLUCINATION,report_file\nq1,true,\n\nq2,예\n", "utf-8")
    rows = json.loads(read(folder_sql)["rag_hallucination_labels.csv"]["document"])
    # a blank line is no row; a short row's missing cells read as null
    assert rows == [{"question_id": "q1", "hallucination": "true", "report_file": None},
                    {"question_id": "q2", "hallucination": "예", "report_file": None}]


@pytest.mark.parametrize(("name", "content", "problem"), [
    ("qa_dataset_cut.json", b'{"questions": [{"id": "a"', "not valid JSON"),
    ("evaluation_report_cp949.json", '{"answer": "합격"}'.encode("cp949"), "not UTF-8"),
    ("rag_hallucination_labels.csv", b"question_id,Question_ID\nq1,q2\n",
     "a column appears twice in the header: question_id,Question_ID"),
    ("rag_hallucination_labels_empty.csv", b"", "empty: no header row"),
])
def test_a_file_that_cannot_be_read_is_refused_saying_why(folder, folder_sql, name, content,
                                                         problem):
    (folder / name).write_bytes(content)
    row = read(folder_sql)[name]
    assert row["document"] is None and row["problem"].startswith(problem), row["problem"]


def test_a_changed_file_is_read_again_and_a_deleted_one_goes(folder, folder_sql):
    dataset = folder / "qa_dataset.json"
    dataset.write_text('{"version": "1"}', "utf-8")
    report = folder / "evaluation_report_1.json"
    report.write_text("{broken", "utf-8")
    assert bool(read(folder_sql)["evaluation_report_1.json"]["problem"])
    dataset.write_text('{"version": "2"}', "utf-8")
    report.unlink()
    rows = read(folder_sql)
    assert list(rows) == ["qa_dataset.json"]
    assert json.loads(rows["qa_dataset.json"]["document"]) == {"version": "2"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"],
                                                        blacklist_characters="\x00"),
                                 max_size=8), min_size=2, max_size=2), max_size=6))
def test_any_label_cells_round_trip_through_the_csv(folder_sql, cells):
    """Whatever the cells hold (commas, quotes, newlines, Korean), each row is read with the
    cells as written (an empty cell as null, as a missing one)."""
    folder = folder_sql[0]
    with open(folder / "rag_hallucination_labels.csv", "w", encoding="utf-8",
              newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "hallucination"])
        writer.writerows(cells)
    rows = json.loads(read(folder_sql)["rag_hallucination_labels.csv"]["document"])
    assert rows == [dict(zip(["question_id", "hallucination"], [cell or None for cell in row],
                             strict=True)) for row in cells]


def test_a_build_stops_at_a_file_it_cannot_read_naming_it(tmp_path):
    """The RAG build fails at base_rag__documents, before any model reads the file; the
    agents' models still build."""
    inputs = tmp_path / "input"
    inputs.mkdir()
    (inputs / "qa_dataset_cut.json").write_text('{"questions": [', "utf-8")
    proc = run_dbt(["build", "--select", "tag:rag"],
                   dbt_env(inputs, tmp_path / "w.duckdb", tmp_path))
    assert proc.returncode == 1
    assert "Failure in model base_rag__documents" in proc.stdout, proc.stdout[-3000:]
    assert "qa_dataset_cut.json: not valid JSON" in proc.stdout
