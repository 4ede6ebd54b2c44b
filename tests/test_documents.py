"""The RAG document loader (agent_scoring.loader.documents), in plain Python and DuckDB: each
dataset, judge report and label file lands once as JSON text, or refused with where it breaks.
What the RAG models then read from it is tested in test_rag_*."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import pytest
from agent_scoring.loader.documents import load_documents
from hypothesis import given, settings
from hypothesis import strategies as st

PATTERNS = {"datasets": "qa_dataset*.json", "judge_reports": "evaluation_report*.json",
            "hallucination_labels": "rag_hallucination_labels*.csv"}


@pytest.fixture()
def con():
    with duckdb.connect() as connection:
        yield connection


def landed(con) -> dict[str, dict]:
    cursor = con.execute("select * from raw.rag_documents")
    names = [d[0] for d in cursor.description]
    return {row[2]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}


def load(con, folder: Path) -> dict[str, str]:
    return {a["source_file"]: a["action"]
            for a in load_documents(con, folder, PATTERNS, log=lambda _: None)}


def test_each_kind_lands_as_json_text_and_other_files_are_left_alone(con, tmp_path):
    (tmp_path / "qa_dataset_v1.json").write_text('{"version": "1", "questions": []}', "utf-8")
    (tmp_path / "evaluation_report_1.json").write_bytes(b'\xef\xbb\xbf{"results": []}')
    (tmp_path / "notes.txt").write_text("not read", "utf-8")
    assert load(con, tmp_path) == {"qa_dataset_v1.json": "loaded",
                                   "evaluation_report_1.json": "loaded"}
    rows = landed(con)
    assert rows["qa_dataset_v1.json"]["kind"] == "datasets"
    assert json.loads(rows["evaluation_report_1.json"]["document"]) == {"results": []}


def test_a_label_csv_is_an_array_of_rows_keyed_by_trimmed_lower_case_header(con, tmp_path):
    (tmp_path / "rag_hallucination_labels.csv").write_text(
        "Question_ID ,HALLUCINATION,report_file\nq1,true,\n\nq2,예\n", "utf-8")
    load(con, tmp_path)
    rows = json.loads(landed(con)["rag_hallucination_labels.csv"]["document"])
    # a blank line is no row; a short row lacks the missing cells (they read as null)
    assert rows == [{"question_id": "q1", "hallucination": "true", "report_file": ""},
                    {"question_id": "q2", "hallucination": "예"}]


@pytest.mark.parametrize(("name", "content", "problem"), [
    ("qa_dataset_cut.json", b'{"questions": [{"id": "a"', "not valid JSON: Expecting"),
    ("evaluation_report_cp949.json", '{"answer": "합격"}'.encode("cp949"), "not UTF-8: byte 13"),
    ("rag_hallucination_labels.csv", b"question_id,Question_ID\nq1,q2\n",
     "column 'question_id' appears twice"),
    ("rag_hallucination_labels_empty.csv", b"", "empty: no header row"),
])
def test_a_file_that_cannot_be_read_is_refused_saying_where(con, tmp_path, name, content,
                                                            problem):
    (tmp_path / name).write_bytes(content)
    assert load(con, tmp_path) == {name: "refused"}
    row = landed(con)[name]
    assert row["document"] is None and row["problem"].startswith(problem), row["problem"]


def test_an_entry_that_is_no_file_is_refused_never_opened(con, tmp_path):
    (tmp_path / "qa_dataset_old.json").mkdir()
    (tmp_path / "evaluation_report_gone.json").symlink_to(tmp_path / "nowhere.json")
    assert load(con, tmp_path) == {"qa_dataset_old.json": "refused",
                                   "evaluation_report_gone.json": "refused"}
    problems = {name: row["problem"] for name, row in landed(con).items()}
    assert problems["qa_dataset_old.json"] == "a folder, not an export file"
    assert problems["evaluation_report_gone.json"].startswith("a symbolic link to ")


def test_a_cut_json_names_its_line_and_column(con, tmp_path):
    (tmp_path / "qa_dataset.json").write_text('{\n  "questions": [\n    {"id": "a",\n', "utf-8")
    load(con, tmp_path)
    assert landed(con)["qa_dataset.json"]["problem"].endswith("at line 4, column 1")


def test_unchanged_files_are_kept_changed_ones_read_again_and_deleted_ones_go(con, tmp_path):
    dataset = tmp_path / "qa_dataset.json"
    dataset.write_text('{"version": "1"}', "utf-8")
    report = tmp_path / "evaluation_report_1.json"
    report.write_text("{broken", "utf-8")
    load(con, tmp_path)
    # a refused file stays refused (its problem kept) until it changes
    actions = load_documents(con, tmp_path, PATTERNS, log=lambda _: None)
    assert {a["source_file"]: (a["action"], bool(a["problem"])) for a in actions} == {
        "qa_dataset.json": ("kept", False), "evaluation_report_1.json": ("kept", True)}
    dataset.write_text('{"version": "2"}', "utf-8")
    report.unlink()
    assert load(con, tmp_path) == {"qa_dataset.json": "loaded",
                                   "evaluation_report_1.json": "removed"}
    assert list(landed(con)) == ["qa_dataset.json"]
    assert json.loads(landed(con)["qa_dataset.json"]["document"]) == {"version": "2"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"]),
                                 max_size=8), min_size=2, max_size=2), max_size=6))
def test_any_label_cells_round_trip_through_the_csv(tmp_path_factory, cells):
    """Whatever the cells hold (commas, quotes, newlines, Korean), each row lands with
    the cells as written."""
    folder = tmp_path_factory.mktemp("labels")
    with open(folder / "rag_hallucination_labels.csv", "w", encoding="utf-8",
              newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "hallucination"])
        writer.writerows(cells)
    with duckdb.connect() as connection:
        load(connection, folder)
        rows = json.loads(landed(connection)["rag_hallucination_labels.csv"]["document"])
    assert rows == [dict(zip(["question_id", "hallucination"], row, strict=True))
                    for row in cells]
