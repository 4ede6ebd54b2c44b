"""The loader lands every export once, in plain Python and DuckDB: no dbt needed here.

What `dbt build` then does with the landed rows is tested elsewhere (test_bad_input_corpus,
test_incremental); these tests pin what the loader itself promises: a file is read once,
changes replace its rows, deletions remove them, and a load that dies mid-file leaves the
file as it was.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import time
from concurrent.futures import Future
from pathlib import Path

import duckdb
import pytest
from agent_scoring.loader import Registry, land, load_exports
from agent_scoring.record_count import scan_file
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
    """Load, and return each file's action."""
    actions = load_exports(con, inputs, reg or registry(), log=lambda _: None)
    return {a["source_file"]: a["action"] for a in actions}


def landed(con, source_file: str) -> list[tuple]:
    return con.execute(
        "select record_no, item_id, csv_error_type from raw.export_rows "
        "where source_file = ? order by record_no nulls last", [source_file]
    ).fetchall()


def file_row(con, source_file: str) -> dict:
    cur = con.execute("select * from raw.export_files where source_file = ?", [source_file])
    names = [d[0] for d in cur.description]
    return dict(zip(names, cur.fetchone(), strict=True))


def test_a_record_with_a_byte_that_is_not_utf8_is_rejected_and_counted(con, inputs):
    """The scan counts records without checking the encoding: DuckDB rejects a record with
    an invalid byte, and then the csv module counts (the scan's count is not used)."""
    text = SAMPLE.read_bytes()
    last = text.rstrip(b"\r\n").rfind(b"\n") + 1
    (inputs / "plan_agent_x.csv").write_bytes(text[:last] + b"\xff" + text[last:])
    load(con, inputs)
    info = file_row(con, "plan_agent_x.csv")
    assert (info["record_count"], info["parsed_records"], info["problem"]) == (40, 39, None)
    assert landed(con, "plan_agent_x.csv")[-1] == (40, None, "INVALID ENCODING")


def test_a_new_file_lands_every_record_with_its_cells_by_english_name(con, inputs):
    shutil.copy(SAMPLE, inputs)
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded"}
    info = file_row(con, "plan_agent_sample.csv")
    assert info["record_count"] == info["parsed_records"] == 40
    assert info["problem"] is None and info["read_from"] == "original"
    rows = con.execute(
        "select count(*), count(raw_json), count(distinct query_id), min(record_no), "
        "max(record_no) from raw.export_rows"
    ).fetchone()
    assert rows == (40, 40, 20, 1, 40)


def test_raw_json_cells_are_stored_zstd_compressed(con, inputs):
    """DuckDB stores long distinct text uncompressed by default: the Raw JSON cells were most
    of the warehouse (487 MB of 100k generated rows, 77 MB with zstd)."""
    shutil.copy(SAMPLE, inputs)
    load(con, inputs)
    con.execute("checkpoint")
    stored = {compression for (compression,) in con.execute(
        "select distinct compression from pragma_storage_info('raw.export_rows') "
        "where column_name = 'raw_json' and segment_type = 'VARCHAR'").fetchall()}
    assert stored == {"ZSTD"}


def test_an_unchanged_file_is_not_read_again(con, inputs):
    shutil.copy(SAMPLE, inputs)
    load(con, inputs)
    before = file_row(con, "plan_agent_sample.csv")["loaded_at"]
    assert load(con, inputs) == {"plan_agent_sample.csv": "kept"}
    assert file_row(con, "plan_agent_sample.csv")["loaded_at"] == before


def test_a_touched_file_with_the_same_content_keeps_its_rows(con, inputs):
    path = Path(shutil.copy(SAMPLE, inputs))
    load(con, inputs)
    before = file_row(con, "plan_agent_sample.csv")
    os.utime(path, ns=(before["modified_ns"] + 10**9, before["modified_ns"] + 10**9))
    assert load(con, inputs) == {"plan_agent_sample.csv": "rehashed"}
    after = file_row(con, "plan_agent_sample.csv")
    assert after["loaded_at"] == before["loaded_at"]
    assert after["modified_ns"] == before["modified_ns"] + 10**9
    assert len(landed(con, "plan_agent_sample.csv")) == 40


def test_a_changed_file_replaces_its_rows(con, inputs):
    path = Path(shutil.copy(SAMPLE, inputs))
    load(con, inputs)
    lines = path.read_bytes().split(b"\r\n")
    path.write_bytes(b"\r\n".join(lines[:11]) + b"\r\n")  # header and 10 records
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded"}
    assert file_row(con, "plan_agent_sample.csv")["record_count"] == 10
    assert [r[0] for r in landed(con, "plan_agent_sample.csv")] == list(range(1, 11))


def test_a_deleted_file_and_its_rows_go(con, inputs):
    path = Path(shutil.copy(SAMPLE, inputs))
    shutil.copy(CORPUS / "plan_agent_utf8_no_bom.csv", inputs)
    load(con, inputs)
    path.unlink()
    assert load(con, inputs) == {"plan_agent_sample.csv": "removed",
                                 "plan_agent_utf8_no_bom.csv": "kept"}
    assert landed(con, "plan_agent_sample.csv") == []
    assert con.execute("select source_file from raw.export_files").fetchall() == [
        ("plan_agent_utf8_no_bom.csv",)]


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
def test_files_duckdb_cannot_read_in_place_are_read_through_a_copy(
    con, inputs, name, encoding, read_from
):
    shutil.copy(CORPUS / name, inputs)
    assert load(con, inputs) == {name: "loaded"}
    info = file_row(con, name)
    assert (info["encoding"], info["read_from"], info["problem"]) == (encoding, read_from, None)
    assert info["record_count"] == len(landed(con, name)) > 0


def test_an_unparsable_record_lands_as_a_row_with_its_record_and_line(con, inputs):
    shutil.copy(CORPUS / "plan_agent_broken_quote.csv", inputs)
    load(con, inputs)
    info = file_row(con, "plan_agent_broken_quote.csv")
    rows = landed(con, "plan_agent_broken_quote.csv")
    rejected = [r for r in rows if r[2] is not None]
    assert len(rejected) == 1 and rejected[0][2] == "UNQUOTED VALUE"
    assert info["record_count"] == len(rows) == info["parsed_records"] + 1
    # the parsed records keep their place in the file: numbers 1..n, the reject's included
    assert sorted(r[0] for r in rows) == list(range(1, len(rows) + 1))


@pytest.mark.parametrize(("name", "problem_code"), [
    ("plan_agent_unterminated_quote.csv", "ambiguous_records"),
    ("plan_agent_cp949_corrupt.csv", "undecodable"),
    ("plan_agent_empty.csv", "empty_file"),
    ("plan_agent_duplicate_header.csv", "duplicate_column"),
])
def test_a_file_that_cannot_be_read_whole_is_refused_and_lands_no_row(
    con, inputs, name, problem_code
):
    shutil.copy(CORPUS / name, inputs)
    assert load(con, inputs) == {name: "refused"}
    assert file_row(con, name)["problem_code"] == problem_code
    assert landed(con, name) == []


def test_a_load_that_dies_mid_file_leaves_the_file_as_it_was(con, inputs, monkeypatch):
    path = Path(shutil.copy(SAMPLE, inputs))
    load(con, inputs)
    before = con.execute("select * from raw.export_rows order by record_no").fetchall()
    lines = path.read_bytes().split(b"\r\n")
    path.write_bytes(b"\r\n".join(lines[:11]) + b"\r\n")
    real_land_rejects = land.land_rejects

    def dies_after_the_insert(*args, **kwargs):
        real_land_rejects(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(land, "land_rejects", dies_after_the_insert)
    with pytest.raises(KeyboardInterrupt):
        load(con, inputs)
    assert con.execute("select * from raw.export_rows order by record_no").fetchall() == before
    monkeypatch.undo()
    assert load(con, inputs) == {"plan_agent_sample.csv": "loaded"}
    assert len(landed(con, "plan_agent_sample.csv")) == 10


class Statements:
    """A connection that notes the first word of every statement it runs."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con, self.words = con, []

    def execute(self, sql: str, *args):
        self.words.append(sql.split()[0].lower())
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.con, name)


def all_landed(con) -> list[tuple]:
    # file_version: a new id for every landing
    rows = con.execute("select * exclude (agent, file_version) from raw.export_rows "
                       "order by all").fetchall()
    files = con.execute("select * exclude (loaded_at, source_path, file_version) "
                        "from raw.export_files "
                        "order by source_file").fetchall()
    return [rows, files]


def test_small_files_land_in_one_transaction(con, inputs):
    for name in ("plan_agent_a.csv", "plan_agent_b.csv", "plan_agent_c.csv"):
        shutil.copy(SAMPLE, inputs / name)
    counted = Statements(con)
    assert set(load(counted, inputs).values()) == {"loaded"}
    assert counted.words.count("commit") == 1  # a commit syncs the WAL: ~10 ms each
    assert len(landed(con, "plan_agent_b.csv")) == 40


def wal_bytes(con) -> int:
    return con.execute("select wal_size from pragma_database_size()").fetchall()[0][0]


def test_a_big_file_is_checkpointed_at_its_commit_and_small_files_after_the_load(
    con, inputs, monkeypatch
):
    shutil.copy(SAMPLE, inputs / "plan_agent_a.csv")
    load(con, inputs)
    assert wal_bytes(con) != "0 bytes"  # small: its rows wait in the WAL for one checkpoint
    shutil.copy(SAMPLE, inputs / "plan_agent_b.csv")
    monkeypatch.setattr(land, "BATCH_BYTES", 1000)  # the sample is now a big file
    load(con, inputs)
    # a checkpoint at the commit keeps the blocks the insert wrote (2 s less for 376 MB)
    assert wal_bytes(con) == "0 bytes"
    assert len(landed(con, "plan_agent_b.csv")) == 40


def write_wide_export(directory: Path) -> Path:
    """The sample with one more record of 200,000 fields: DuckDB takes minutes to store it
    as a reject, and fails a strict read on it at once."""
    head, rest = SAMPLE.read_text(encoding="utf-8-sig").split("\n", 1)
    path = directory / "plan_agent_wide.csv"
    path.write_text(f"{head}\n{rest}{','.join(['x'] * 200_000)}\n", encoding="utf-8")
    return path


class LateScan(Future):
    """A scan still running when its file is read (a 376 MB export's takes 2 s): it ends
    when its result is asked for."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def result(self, timeout: float | None = None):
        if not self.done():
            self.set_result(scan_file(self.path, 1000))
        return super().result(timeout)


class LateScanner:
    def __init__(self, paths: list[str], max_fields: int) -> None:
        self.futures = {path: LateScan(path) for path in paths}

    def __enter__(self) -> LateScanner:
        return self

    def __exit__(self, *exc) -> None:
        pass


READ_INTO_ROWS = land.read_into_rows


def test_a_big_file_read_before_its_scan_ends_lands_as_if_scanned_first(
    con, tmp_path, inputs, monkeypatch
):
    """A big file is read strictly while its scan runs; a bad record (here: every kind in
    the corpus, and a record of 200,000 fields that DuckDB would take minutes to store as a
    reject) fails that read at once, and the file is read as when its scan comes first."""
    for path in CORPUS.glob("plan_agent_*.csv"):
        shutil.copy(path, inputs)
    shutil.copy(SAMPLE, inputs / "plan_agent_sample.csv")
    write_wide_export(inputs)
    with duckdb.connect(str(tmp_path / "scanned_first.duckdb")) as first:
        load(first, inputs)
        expected = all_landed(first)
    monkeypatch.setattr(land, "FileScanner", LateScanner)
    monkeypatch.setattr(land, "BATCH_BYTES", 1000)  # every file is big: alone, read early
    reads = []
    monkeypatch.setattr(land, "read_into_rows", lambda *args, **kwargs: reads.append(
        kwargs.get("strict", False)) or READ_INTO_ROWS(*args, **kwargs))
    started = time.perf_counter()
    load(con, inputs)
    assert time.perf_counter() - started < 30
    assert all_landed(con) == expected
    assert reads.count(True) > 20  # every file DuckDB reads in place was read early
    assert file_row(con, "plan_agent_sample.csv")["parsed_records"] == 40
    assert file_row(con, "plan_agent_wide.csv")["parsed_records"] == 40


def test_a_read_that_fails_in_a_batch_lands_each_file_alone_as_if_read_alone(
    con, tmp_path, inputs
):
    # DuckDB refuses the mixed newlines in place: that read is retried through a copy
    shutil.copy(SAMPLE, inputs / "plan_agent_a.csv")
    shutil.copy(CORPUS / "plan_agent_mixed_newlines.csv", inputs)
    shutil.copy(CORPUS / "plan_agent_broken_quote.csv", inputs / "plan_agent_z.csv")
    counted = Statements(con)
    assert set(load(counted, inputs).values()) == {"loaded"}
    assert counted.words.count("rollback") >= 2  # the batch's, then the retry's own
    assert counted.words.count("commit") == 3
    alone = {}
    for path in sorted(inputs.iterdir()):
        folder = tmp_path / f"alone_{path.stem}"
        folder.mkdir()
        shutil.copy2(path, folder)  # the same mtime
        with duckdb.connect(str(tmp_path / f"{path.stem}.duckdb")) as one_con:
            load(one_con, folder)
            alone[path.name] = all_landed(one_con)
    together = all_landed(con)
    assert together[0] == sorted(row for rows, _ in alone.values() for row in rows)
    assert together[1] == [row for _, (_, files) in sorted(alone.items()) for row in files]


@pytest.mark.parametrize(("make", "says"), [
    (lambda folder: folder / "missing", "does not exist"),
    (lambda folder: (folder / "file.csv", (folder / "file.csv").write_text("x"))[0],
     "is not a folder"),
])
def test_a_missing_or_non_folder_input_dir_refuses_the_load_and_keeps_every_row(
        con, inputs, tmp_path, make, says):
    shutil.copy(SAMPLE, inputs)
    load(con, inputs)
    before = con.execute("select count(*) from raw.export_rows").fetchone()[0]
    wrong = make(tmp_path)
    with pytest.raises(land.InputDirError, match=f"input folder {wrong} {says}"):
        load(con, wrong)
    assert con.execute("select count(*) from raw.export_rows").fetchone()[0] == before == 40


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
                              "from raw.export_files").fetchall())
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
    assert con.execute("select count(*) from raw.export_rows").fetchone()[0] == 80


def test_an_entry_named_like_a_rag_file_that_is_no_file_is_refused(con, inputs, tmp_path):
    """DuckDB's read_blob passes a folder or a dangling link by (base_rag__documents): the
    loader lists it, so it is not dropped silently."""
    (inputs / "qa_dataset_old.json").mkdir()
    (inputs / "evaluation_report_gone.json").symlink_to(tmp_path / "nowhere.json")
    (inputs / "qa_dataset_v1.json").write_text("{}", "utf-8")  # a file: DuckDB reads it
    reg = registry(other_patterns=["qa_dataset*.json", "evaluation_report*.json"])
    assert load(con, inputs, reg) == {"qa_dataset_old.json": "refused",
                                      "evaluation_report_gone.json": "refused"}
    listed = dict(con.execute("select source_file, problem_code from raw.export_files "
                              "where agent = '(unclaimed)'").fetchall())
    assert listed == {"qa_dataset_old.json": "not_a_file",
                      "evaluation_report_gone.json": "dangling_symlink"}


BOUNDED_LOAD = """
import json, resource, sys
from pathlib import Path
import duckdb
sys.path.insert(0, {tests!r})
from test_loader import registry
from agent_scoring.loader import load_exports
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
con = duckdb.connect()
load_exports(con, Path({inputs!r}), registry(), log=lambda _: None)
print(json.dumps({{
    "files": con.execute("select source_file, record_count, parsed_records, problem "
                         "from raw.export_files order by all").fetchall(),
    "rejects": con.execute("select source_file, record_no, line_no, csv_error_type, csv_error "
                           "from raw.export_rows where csv_error is not null").fetchall(),
}}))
"""


def test_an_xlsx_bomb_and_a_record_of_200k_fields_are_bounded(inputs, tmp_path):
    """Under a 3 GB address-space cap and a minute: the 200k-field record is rejected as
    that record (the file's 40 good records land), the xlsx whose one stray cell sits at
    XFD20000 is refused with the reason, and the build goes on."""
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
    code = BOUNDED_LOAD.format(tests=str(REPO / "tests"), inputs=str(inputs))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["files"] == [
        ["plan_agent_bomb.xlsx", None, None,
         "sheet 'validation_history' spans 16384 columns × 20000 rows (a cell as far as "
         "XFD20000): more than 10,000,000 cells to read; delete the cells outside the table "
         "and save it again"],
        ["plan_agent_wide.csv", 41, 40, None],
    ]
    lines = SAMPLE.read_text(encoding="utf-8-sig").count("\n")  # the wide record's line - 1
    assert found["rejects"] == [
        ["plan_agent_wide.csv", 41, lines + 1, "TOO MANY COLUMNS",
         "the record has 200000 fields; records of more than 1000 (vars.csv_max_fields) "
         "are not read"]]


def test_a_record_over_the_line_size_limit_is_rejected_alone(con, inputs):
    head, rest = SAMPLE.read_text(encoding="utf-8-sig").split("\n", 1)
    (inputs / "plan_agent_long.csv").write_text(
        f"{head}\n{rest}{','.join(['y' * 6000] * (head.count(',') + 1))}\n", encoding="utf-8")
    load(con, inputs, registry(max_line_bytes=70000))
    assert file_row(con, "plan_agent_long.csv")["parsed_records"] == 40
    assert landed(con, "plan_agent_long.csv")[-1] == (41, None, "LINE SIZE OVER MAXIMUM")


def test_names_are_stored_in_nfc_and_an_nfc_nfd_pair_is_one_run_and_one_refusal(con, inputs):
    import unicodedata

    nfc = "plan_agent_회귀.csv"
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfd != nfc
    shutil.copy(SAMPLE, inputs / nfd)  # what macOS writes
    assert load(con, inputs) == {nfc: "loaded"}
    assert con.execute("select distinct source_file from raw.export_rows").fetchall() == [(nfc,)]
    shutil.copy(SAMPLE, inputs / nfc)  # a second copy, under the look-alike name
    actions = load(con, inputs)
    assert actions == {nfc: "loaded", nfd: "refused"}
    assert file_row(con, nfd)["problem"] == (
        f"the same name as {inputs / nfc} in another Unicode form (macOS writes names in NFD); "
        "keep one of the two")
    assert con.execute("select count(*) from raw.export_rows").fetchone()[0] == 40


def test_a_file_no_reader_claims_is_said_in_the_log(con, inputs):
    shutil.copy(SAMPLE, inputs)
    (inputs / "unknown_agent_x.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (inputs / "qa_dataset_v2.json").write_text("{}", encoding="utf-8")  # the RAG reader's
    said: list[str] = []
    load_exports(con, inputs, registry(other_patterns=["qa_dataset*.json"]), log=said.append)
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


def test_a_plain_export_is_listed_for_staging_and_an_odd_one_lands_with_its_rejects(
    con, inputs
):
    """direct_reads: a plain UTF-8 export is scanned, not landed (staging reads it in place,
    a record DuckDB cannot parse among them); one with records ending in both CRLF and LF
    lands through its normalised copy, and one with a record too wide lands with that record
    rejected."""
    shutil.copy(SAMPLE, inputs / "plan_agent_sample.csv")
    for name in ("plan_agent_broken_quote.csv", "plan_agent_mixed_newlines.csv"):
        shutil.copy(CORPUS / name, inputs / name)
    write_wide_export(inputs)
    started = time.perf_counter()
    assert set(load(con, inputs, registry(direct_reads=True)).values()) == {"loaded"}
    assert time.perf_counter() - started < 30  # the wide record is never stored as a reject
    files = {row[0]: row[1:] for row in con.execute(
        "select source_file, read_by, record_count, parsed_records, read_spec is not null "
        "from raw.export_files").fetchall()}
    assert files == {
        "plan_agent_sample.csv": ("staging", 40, 40, True),
        "plan_agent_broken_quote.csv": ("staging", 4, 4, True),
        "plan_agent_mixed_newlines.csv": ("loader", 4, 4, False),
        "plan_agent_wide.csv": ("loader", 41, 40, False)}
    landed = dict(con.execute("select source_file, count(*) from raw.export_rows "
                              "group by all").fetchall())
    assert landed == {"plan_agent_mixed_newlines.csv": 4, "plan_agent_wide.csv": 41}
    spec = json.loads(con.execute("select read_spec from raw.export_files "
                                  "where source_file = 'plan_agent_sample.csv'").fetchone()[0])
    assert spec["columns"][:2] == ["run_id", "item_id"]


def test_without_direct_reads_every_readable_export_lands(con, inputs):
    """The Parquet copy for Spark needs every row landed (export_loads turns direct reads
    off when it writes one)."""
    shutil.copy(SAMPLE, inputs / "plan_agent_sample.csv")
    load(con, inputs)
    assert con.execute("select read_by from raw.export_files").fetchall() == [("loader",)]
    assert con.execute("select count(*) from raw.export_rows").fetchone()[0] == 40


@pytest.mark.parametrize(("spare_fields", "read_by"), [(0, "staging"), (-1, "loader")])
def test_a_header_as_wide_as_csv_max_fields_is_what_keeps_a_file_from_being_read_in_place(
    con, inputs, spare_fields, read_by
):
    """A file whose lines are no wider than its header is read in place unless its header
    alone has csv_max_fields separators, and is then landed (each record too wide, rejected
    as such)."""
    shutil.copy(SAMPLE, inputs / "plan_agent_sample.csv")
    width = SAMPLE.read_text(encoding="utf-8-sig").split("\n", 1)[0].count(",") + 1
    load(con, inputs, registry(direct_reads=True, max_fields=width + spare_fields))
    assert con.execute("select read_by from raw.export_files").fetchall() == [(read_by,)]
