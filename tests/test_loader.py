"""The loader lists every export once, in plain Python and DuckDB: no dbt needed here.

It writes no row of an export: it says, in its listing (the table the model export_loads
returns), how staging reads each file (in place, or a UTF-8 copy beside the warehouse) and how
many records it holds. What stg_exports__rows then reads is tested with dbt
(test_direct_reads, test_bad_input_corpus, test_incremental); these tests pin what the loader
itself promises: a file is read once, a change reads it again, a deletion removes it, and a
load that dies leaves the listing as it was. Here `load` stores each listing as dbt does
(the table `listing`), and the next load starts from it.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import duckdb
import pytest
from agent_scoring.loader import LISTING, Registry, land, load_exports, previous_listing
from corpus import make_corpus

REPO = Path(__file__).resolve().parents[1]
CORPUS = make_corpus.FILES / "main"
SAMPLE = REPO / "samples" / "plan_agent_sample.csv"
PLAN_COLUMNS = ["Run ID", "Item ID", "Query ID", "질의", "기대결과", "카테고리", "방/반복", "오류",
                "LLM 상태", "Raw JSON"]


def registry(**changes) -> Registry:
    with open(REPO / "seeds" / "export_columns.csv", encoding="utf-8") as handle:
        dictionary = {row["header_name"]: row["column_name"] for row in csv.DictReader(handle)}
    settings = {
        "patterns": {"plan_agent": ["plan_agent_*.csv", "plan_agent_*.xlsx"]},
        "required": {"plan_agent": PLAN_COLUMNS},
        "dictionary": dictionary,
        **changes,
    }
    return Registry(**settings)


@pytest.fixture()
def inputs(tmp_path) -> Path:
    folder = tmp_path / "input"
    folder.mkdir()
    return folder


@pytest.fixture()
def con(tmp_path):
    with duckdb.connect(str(tmp_path / "warehouse.duckdb")) as connection:
        yield connection


def load(con, inputs, reg=None) -> dict[str, str]:
    """Load from the last listing and store the new one (as dbt stores export_loads);
    return each file's action."""
    actions = load_exports(con, inputs, reg or registry(), previous_listing(con, "main", "listing"),
                           log=lambda _: None)
    con.execute(f"create or replace table listing as select * from {LISTING}")
    return {a["source_file"]: a["action"] for a in actions}


def file_row(con, source_file: str) -> dict:
    cur = con.execute("select * exclude (action) from listing where source_file = ?",
                      [source_file])
    names = [d[0] for d in cur.description]
    return dict(zip(names, cur.fetchone(), strict=True))


def listed(con) -> list[tuple]:
    return con.execute("select * exclude (loaded_at, action) from listing "
                       "order by source_file").fetchall()


def test_a_new_file_is_listed_for_staging_with_its_count_and_header(con, inputs):
    shutil.copy(SAMPLE, inputs)
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded"}
    info = file_row(con, "plan_agent_sample.csv")
    assert info["record_count"] == 40
    assert (info["problem"], info["read_from"], info["read_by"]) == (None, "original", "staging")
    assert info["read_path"] == str(inputs / "plan_agent_sample.csv")  # read where it lies
    spec = json.loads(info["read_spec"])
    assert spec["columns"][:2] == ["run_id", "item_id"]
    assert info["wide_rejects"] is None


def test_an_unchanged_file_is_not_read_again(con, inputs):
    shutil.copy(SAMPLE, inputs)
    load(con, inputs)
    before = file_row(con, "plan_agent_sample.csv")
    assert load(con, inputs) == {"plan_agent_sample.csv": "kept"}
    assert file_row(con, "plan_agent_sample.csv") == before


def test_a_touched_file_with_the_same_content_keeps_its_reading(con, inputs):
    path = Path(shutil.copy(SAMPLE, inputs))
    load(con, inputs)
    before = file_row(con, "plan_agent_sample.csv")
    os.utime(path, ns=(before["modified_ns"] + 10**9, before["modified_ns"] + 10**9))
    assert load(con, inputs) == {"plan_agent_sample.csv": "rehashed"}
    after = file_row(con, "plan_agent_sample.csv")
    # the same file_version: staging's rows of it stay
    assert after == before | {"modified_ns": before["modified_ns"] + 10**9}


def test_a_changed_file_is_read_again(con, inputs):
    path = Path(shutil.copy(SAMPLE, inputs))
    load(con, inputs)
    before = file_row(con, "plan_agent_sample.csv")["file_version"]
    lines = path.read_bytes().split(b"\r\n")
    path.write_bytes(b"\r\n".join(lines[:11]) + b"\r\n")  # header and 10 records
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded"}
    after = file_row(con, "plan_agent_sample.csv")
    assert after["record_count"] == 10 and after["file_version"] != before


def test_a_deleted_file_goes_and_so_does_its_copy(con, inputs, tmp_path):
    path = Path(shutil.copy(SAMPLE, inputs))
    shutil.copy(CORPUS / "plan_agent_cp949.csv", inputs)
    load(con, inputs)
    copy = Path(file_row(con, "plan_agent_cp949.csv")["read_path"])
    assert copy.parent == tmp_path / "warehouse.copies" and copy.exists()
    path.unlink()
    (inputs / "plan_agent_cp949.csv").unlink()
    assert load(con, inputs) == {"plan_agent_sample.csv": "removed",
                                 "plan_agent_cp949.csv": "removed"}
    assert listed(con) == [] and not copy.exists()


def test_a_copy_gone_is_made_again(con, inputs):
    """A warehouse restored without its copies (a CI cache of the .duckdb file alone): the
    file is read again, so staging never looks for a copy that is not there."""
    shutil.copy(CORPUS / "plan_agent_cp949.csv", inputs)
    load(con, inputs)
    copy = Path(file_row(con, "plan_agent_cp949.csv")["read_path"])
    copy.unlink()
    assert load(con, inputs) == {"plan_agent_cp949.csv": "loaded"}
    assert Path(file_row(con, "plan_agent_cp949.csv")["read_path"]).exists()


def test_new_read_rules_read_every_file_again(con, inputs):
    shutil.copy(SAMPLE, inputs)
    load(con, inputs)
    assert load(con, inputs, registry(max_line_bytes=1 << 25)) == {
        "plan_agent_sample.csv": "loaded"}


@pytest.mark.parametrize(("name", "encoding", "read_from"), [
    ("plan_agent_cp949.csv", "cp949", "transcoded"),
    ("plan_agent_utf16.csv", "utf-16", "transcoded"),
    ("plan_agent_utf16le_no_bom.csv", "utf-16-le", "transcoded"),
    ("plan_agent_mixed_newlines.csv", "utf-8-sig", "normalized"),
])
def test_files_duckdb_cannot_read_in_place_are_read_through_a_utf8_copy(
    con, inputs, tmp_path, name, encoding, read_from
):
    shutil.copy(CORPUS / name, inputs)
    assert load(con, inputs) == {name: "loaded"}
    info = file_row(con, name)
    assert (info["encoding"], info["read_from"], info["problem"]) == (encoding, read_from, None)
    copy = Path(info["read_path"])
    assert copy.parent == tmp_path / "warehouse.copies"  # never in the input folder
    text = copy.read_bytes().decode("utf-8")
    assert "채용" in text and b"\r\n" in copy.read_bytes()
    assert info["record_count"] == 4


@pytest.mark.parametrize(("name", "problem_code"), [
    ("plan_agent_cp949_corrupt.csv", "undecodable"),
    ("plan_agent_empty.csv", "empty_file"),
    ("plan_agent_duplicate_header.csv", "duplicate_column"),
])
def test_a_file_that_cannot_be_read_is_refused_and_not_read(con, inputs, name, problem_code):
    shutil.copy(CORPUS / name, inputs)
    assert load(con, inputs) == {name: "refused"}
    info = file_row(con, name)
    assert (info["problem_code"], info["read_by"], info["read_path"]) == (
        problem_code, None, None)


def test_a_load_that_dies_leaves_the_listing_as_it_was(con, inputs, monkeypatch):
    path = Path(shutil.copy(SAMPLE, inputs))
    shutil.copy(SAMPLE, inputs / "plan_agent_b.csv")
    load(con, inputs)
    before = listed(con)
    lines = path.read_bytes().split(b"\r\n")
    path.write_bytes(b"\r\n".join(lines[:11]) + b"\r\n")
    (inputs / "plan_agent_b.csv").unlink()
    real_insert = land.insert_file_rows

    def dies_after_the_insert(*args, **kwargs):
        real_insert(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(land, "insert_file_rows", dies_after_the_insert)
    with pytest.raises(KeyboardInterrupt):
        load(con, inputs)
    assert listed(con) == before
    monkeypatch.undo()
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded",
                                 "plan_agent_b.csv": "removed"}
    assert file_row(con, "plan_agent_sample.csv")["record_count"] == 10


def test_a_load_writes_no_table_but_its_own_temporary_listing(con, inputs):
    """No row of an export, and nothing stored: dbt stores the listing the model returns,
    in whole, or not at all."""
    for name in ("plan_agent_a.csv", "plan_agent_b.csv"):
        shutil.copy(SAMPLE, inputs / name)
    load_exports(con, inputs, registry(), None, log=lambda _: None)
    assert con.execute("select table_name, temporary from duckdb_tables()").fetchall() == [
        (LISTING, True)]
    assert con.execute(f"select count(*) from {LISTING} where action = 'loaded'"
                       ).fetchone()[0] == 2


def write_wide_export(directory: Path) -> Path:
    """The sample with one more record of 200,000 fields: DuckDB takes minutes to store it
    as a reject."""
    head, rest = SAMPLE.read_text(encoding="utf-8-sig").split("\n", 1)
    path = directory / "plan_agent_wide.csv"
    path.write_text(f"{head}\n{rest}{','.join(['x'] * 200_000)}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("make", "says"), [
    (lambda folder: folder / "missing", "does not exist"),
    (lambda folder: (folder / "file.csv", (folder / "file.csv").write_text("x"))[0],
     "is not a folder"),
])
def test_a_missing_or_non_folder_input_dir_refuses_the_load_and_keeps_every_file(
        con, inputs, tmp_path, make, says):
    shutil.copy(SAMPLE, inputs)
    load(con, inputs)
    before = listed(con)
    wrong = make(tmp_path)
    with pytest.raises(land.InputDirError, match=f"input folder {wrong} {says}"):
        load(con, wrong)
    assert listed(con) == before and len(before) == 1


def test_an_unreadable_input_dir_refuses_the_load(con, inputs, monkeypatch):
    def denied(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(land.os, "scandir", denied)
    with pytest.raises(land.InputDirError, match=r"cannot be read \(Permission denied\)"):
        load(con, inputs)


def test_entries_that_are_not_readable_files_are_listed_and_never_opened(
        con, inputs, tmp_path, monkeypatch):
    (inputs / "plan_agent_dangling.csv").symlink_to(tmp_path / "gone.csv")
    (inputs / "plan_agent_loop.csv").symlink_to(inputs / "plan_agent_loop.csv")
    os.mkfifo(inputs / "plan_agent_fifo.csv")  # opening it would wait for a writer
    (inputs / "plan_agent_folder.csv").mkdir()
    shutil.copy(SAMPLE, inputs / "plan_agent_locked.csv")
    opened = Path.open

    def no_permission(path, *args, **kwargs):
        if path.name == "plan_agent_locked.csv":
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", no_permission)
    assert set(load(con, inputs).values()) == {"refused"}
    listed = dict(con.execute("select source_file, problem_code || ': ' || problem "
                              "from listing").fetchall())
    assert listed == {
        "plan_agent_dangling.csv":
            f"dangling_symlink: a symbolic link to {tmp_path / 'gone.csv'}, which does not exist",
        "plan_agent_loop.csv":
            "symlink_loop: a symbolic link that leads back to itself (a loop)",
        "plan_agent_fifo.csv": "not_a_file: a FIFO, not an export file: never opened",
        "plan_agent_folder.csv": "not_a_file: a folder, not an export file",
        "plan_agent_locked.csv":
            "unreadable_file: cannot be read (Permission denied); check its permissions",
    }
    # fixed without touching the file's modification time: looked at again, and read
    monkeypatch.setattr(Path, "open", opened)
    shutil.copy(SAMPLE, tmp_path / "gone.csv")
    actions = load(con, inputs)
    assert actions["plan_agent_locked.csv"] == actions["plan_agent_dangling.csv"] == "loaded"
    assert con.execute("select count(*) from listing where read_by = 'staging'"
                       ).fetchone()[0] == 2


def test_an_entry_named_like_a_rag_file_that_is_no_file_is_refused(con, inputs, tmp_path):
    """DuckDB's read_blob passes a folder or a dangling link by (base_rag__documents): the
    loader lists it, so it is not dropped silently."""
    (inputs / "qa_dataset_old.json").mkdir()
    (inputs / "evaluation_report_gone.json").symlink_to(tmp_path / "nowhere.json")
    (inputs / "qa_dataset_v1.json").write_text("{}", "utf-8")  # a file: DuckDB reads it
    reg = registry(other_patterns=["qa_dataset*.json", "evaluation_report*.json"])
    assert load(con, inputs, reg) == {"qa_dataset_old.json": "refused",
                                      "evaluation_report_gone.json": "refused"}
    listed = dict(con.execute("select source_file, problem_code from listing "
                              "where agent = '(unclaimed)'").fetchall())
    assert listed == {"qa_dataset_old.json": "not_a_file",
                      "evaluation_report_gone.json": "dangling_symlink"}


def test_a_header_as_wide_as_csv_max_fields_blanks_every_record(con, inputs):
    """A file whose header alone has csv_max_fields separators: every record is as wide, so
    each is blanked in the copy and listed to be rejected as that record (staging turns the
    placeholders into rejects: test_direct_reads)."""
    shutil.copy(SAMPLE, inputs / "plan_agent_sample.csv")
    width = SAMPLE.read_text(encoding="utf-8-sig").split("\n", 1)[0].count(",") + 1
    load(con, inputs, registry(max_fields=width - 1))
    info = file_row(con, "plan_agent_sample.csv")
    assert (info["read_by"], info["record_count"]) == ("staging", 40)
    wide = json.loads(info["wide_rejects"])
    assert [entry["record_no"] for entry in wide] == list(range(1, 41))
    assert {entry["error_type"] for entry in wide} == {"TOO MANY COLUMNS"}
    assert Path(info["read_path"]).parent.name == "warehouse.copies"


BOUNDED_LOAD = """
import json, resource, sys
from pathlib import Path
import duckdb
sys.path.insert(0, {tests!r})
from test_loader import registry
from agent_scoring.loader import LISTING, load_exports
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
con = duckdb.connect({db!r})
load_exports(con, Path({inputs!r}), registry(), log=lambda _: None)
print(json.dumps({{
    "files": con.execute("select source_file, record_count, problem "
                         f"from {{LISTING}} order by all").fetchall(),
    "wide": con.execute("select wide_rejects, read_path from " + LISTING +
                        " where wide_rejects is not null").fetchall(),
}}))
"""


def test_an_xlsx_bomb_and_a_record_of_200k_fields_are_bounded(inputs, tmp_path):
    """Under a 3 GB address-space cap and a minute: the 200k-field record is blanked in the
    copy DuckDB reads and listed to be rejected as that record (the file's 40 good records
    are read), the xlsx whose one stray cell sits at XFD20000 is refused with the reason."""
    import subprocess
    import sys

    import openpyxl
    from support.xlsx import read_csv, write_xlsx

    header, rows = read_csv(SAMPLE)
    bomb = write_xlsx(inputs / "plan_agent_bomb.xlsx", header, rows)
    book = openpyxl.load_workbook(bomb)
    book["validation_history"]["XFD20000"] = "x"
    book.save(bomb)
    write_wide_export(inputs)
    code = BOUNDED_LOAD.format(tests=str(REPO / "tests"), inputs=str(inputs),
                               db=str(tmp_path / "warehouse.duckdb"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["files"] == [
        ["plan_agent_bomb.xlsx", None,
         "sheet 'validation_history' spans 16384 columns × 20000 rows (a cell as far as "
         "XFD20000): more than 10,000,000 cells to read; delete the cells outside the table "
         "and save it again"],
        ["plan_agent_wide.csv", 41, None],
    ]
    [(wide, read_path)] = found["wide"]
    lines = SAMPLE.read_text(encoding="utf-8-sig").count("\n")  # the wide record's line - 1
    assert [(r["record_no"], r["line_no"], r["error_type"], r["error_message"])
            for r in json.loads(wide)] == [
        (41, lines + 1, "TOO MANY COLUMNS",
         "the record has 200000 fields; records of more than 1000 (vars.csv_max_fields) "
         "are not read")]
    # the copy holds a placeholder where the record of 400 kB was
    wide_bytes = (inputs / "plan_agent_wide.csv").stat().st_size
    assert Path(read_path).stat().st_size < wide_bytes - 390_000


def test_names_are_stored_in_nfc_and_an_nfc_nfd_pair_is_one_run_and_one_refusal(con, inputs):
    import unicodedata

    nfc = "plan_agent_회귀.csv"
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfd != nfc
    shutil.copy(SAMPLE, inputs / nfd)  # what macOS writes
    assert load(con, inputs) == {nfc: "loaded"}
    assert con.execute("select source_file from listing").fetchall() == [(nfc,)]
    shutil.copy(SAMPLE, inputs / nfc)  # a second copy, under the look-alike name
    actions = load(con, inputs)
    assert actions == {nfc: "loaded", nfd: "refused"}
    assert file_row(con, nfd)["problem"] == (
        f"the same name as {inputs / nfc} in another Unicode form (macOS writes names in NFD); "
        "keep one of the two")
    assert con.execute("select count(*) from listing where read_by = 'staging'"
                       ).fetchone()[0] == 1


def test_a_file_no_reader_claims_is_said_in_the_log(con, inputs):
    shutil.copy(SAMPLE, inputs)
    (inputs / "unknown_agent_x.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (inputs / "qa_dataset_v2.json").write_text("{}", encoding="utf-8")  # the RAG reader's
    said: list[str] = []
    load_exports(con, inputs, registry(other_patterns=["qa_dataset*.json"]), None,
                 log=said.append)
    assert [line for line in said if line.startswith("unclaimed")] == [
        f"unclaimed {inputs / 'unknown_agent_x.csv'}: no agent's file patterns (vars.agents) "
        "nor the RAG files (vars.rag_files) match its name, so nothing reads it"]


def test_a_header_the_dictionary_maps_twice_is_refused_in_one_line():
    # a second row for `ID` would silently replace the first (issue 39)
    assert land.export_dictionary([("ID", "item_id"), ("ID", "item_id"), ("질의", "query_text")]
                                  ) == {"ID": "item_id", "질의": "query_text"}
    with pytest.raises(land.DictionaryError) as raised:
        land.export_dictionary([("ID", "item_id"), ("ID", "query_id")])
    assert str(raised.value).startswith(
        'seeds/export_columns.csv maps the header "ID" twice (item_id, query_id): keep one row')


def test_a_listing_of_an_earlier_version_reads_every_file_again(con, inputs):
    """export_loads of an earlier version held what each load did, not the listing: no
    previous listing, so every file is read again (and gets a new reading)."""
    shutil.copy(SAMPLE, inputs)
    con.execute("create table listing as select 'plan_agent_sample.csv' as source_file, "
                "'kept' as action")
    assert previous_listing(con, "main", "listing") is None
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded"}
    assert previous_listing(con, "main", "listing") == '"main"."listing"'
