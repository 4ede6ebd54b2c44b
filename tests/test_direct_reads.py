"""Issue 41, one read per export, and issue 72, DuckDB reads the input folder in staging:
stg_exports__rows reads every export in place (or the UTF-8 copy the loader made) and settles
its rejects and its count itself. Staging reads several exports in one read_csv
(direct_read_groups), so faulty ones sit before others in a read: their rows, rejects and
the numbers of the rows after them must come out as a read of each file alone gives them.
The same inputs, the bundled samples and the bad-input corpus and a few more, are built
twice: as `dbt build` does by default (several files a read, rows kept before they are
parsed), and with every file read alone, parsed as it is read."""

from __future__ import annotations

import csv
import io
import shutil
import time
from pathlib import Path

import duckdb
from corpus import make_corpus
from support.rebuild import VOLATILE, build, env_for, project_inputs
from support.warehouse import SAMPLES, run_dbt

SKIPPED = {"export_loads", "builds"}


def staging_sql(work: Path) -> str:
    """stg_exports__rows as the last dbt command in `work` compiled it."""
    return next((work / "target" / "compiled").rglob("stg_exports__rows.sql")).read_text()


def write_wide_and_long_exports(inputs: Path) -> None:
    """The sample with one more record each: of 200,000 fields (DuckDB takes minutes to
    store it as a reject: the loader blanks it in a copy), over csv_max_line_bytes, and with
    a byte that is not UTF-8."""
    sample = (SAMPLES / "plan_agent_sample.csv").read_text(encoding="utf-8-sig")
    head, rest = sample.split("\n", 1)
    (inputs / "plan_agent_wide.csv").write_text(
        f"{head}\n{rest}{','.join(['x'] * 200_000)}\n", encoding="utf-8")
    (inputs / "plan_agent_long.csv").write_text(
        f"{head}\n{rest}{','.join(['y' * 20_000] * (head.count(',') + 1))}\n",
        encoding="utf-8")
    text = sample.encode("utf-8")
    last = text.rstrip(b"\r\n").rfind(b"\n") + 1
    (inputs / "plan_agent_not_utf8_byte.csv").write_bytes(text[:last] + b"\xff" + text[last:])


def test_a_build_reading_exports_together_equals_one_reading_each_alone(tmp_path):
    inputs = project_inputs(tmp_path)
    for path in (make_corpus.FILES / "main").iterdir():
        shutil.copy(path, inputs / path.name)
    # read in place, then settled by staging's hooks: a quote that never closes in a file
    # of LF only (the csv module and DuckDB agree on its records: they are rejected), one
    # they disagree on, and rejects after blank lines (numbered as the csv module does)
    corpus = make_corpus.FILES / "main"
    unterminated = (corpus / "plan_agent_unterminated_quote.csv").read_bytes().replace(
        b"\r\n", b"\n")
    (inputs / "plan_agent_lf_unterminated.csv").write_bytes(unterminated)
    # after a space the quote is text to the csv module (4 records), not to DuckDB (7): refused
    (inputs / "plan_agent_lf_space_quote.csv").write_bytes(
        unterminated.replace('"열린'.encode(), ' "열린'.encode()))
    # a quote inside a cell: text to both, but it throws the scan's quote parity off
    (inputs / "plan_agent_lf_mid_quote.csv").write_bytes(
        unterminated.replace('"열린'.encode(), '열"린'.encode()))
    header, first, rest = (corpus / "plan_agent_ragged_rows.csv").read_bytes().split(b"\r\n", 2)
    (inputs / "plan_agent_blank_lines.csv").write_bytes(
        b"\r\n".join([header, b"", first, b"", b"", rest]))
    write_wide_and_long_exports(inputs)
    for path in SAMPLES.glob("*.xlsx"):
        shutil.copy(path, inputs / path.name)
    limit = "csv_max_line_bytes: 300000"
    started = time.perf_counter()
    build(tmp_path, inputs, "--vars", f"{{{limit}}}", db="direct.duckdb", data_tests=True)
    assert time.perf_counter() - started < 120  # the wide record is never stored as a reject
    extra = ["--vars", f"{{{limit}, direct_read_buffer_bytes: -1, direct_read_groups: 1000}}"]
    build(tmp_path, inputs, *extra, db="landed.duckdb")
    compiled = {name: staging_sql(tmp_path / name) for name in ("direct", "landed")}
    assert "with fresh as materialized (" in compiled["direct"]
    # fewer reads than exports read in place: some reads hold several
    reads = compiled["direct"].count("from read_csv(")
    assert 3 <= reads <= 12, reads
    # ... and the file whose last quote never closes is not the last of its read
    listed = next(part.split("with ordinality")[0]
                  for part in compiled["direct"].split("from read_csv(")
                  if "plan_agent_cut_off.csv" in part.split("with ordinality")[0])
    assert listed.index("plan_agent_cut_off.csv") < listed.index(
        "plan_agent_duplicate_item_ids.csv")
    assert "materialized" not in compiled["landed"]
    # each file alone: as many reads as exports read
    with duckdb.connect(str(tmp_path / "landed.duckdb"), read_only=True) as con:
        files = con.execute("select count(*) from export_loads "
                            "where read_by = 'staging'").fetchone()[0]
    assert compiled["landed"].count("from read_csv(") == files
    # every byte read counts: room for all exports but one is not enough
    with duckdb.connect(str(tmp_path / "direct.duckdb"), read_only=True) as con:
        in_place = con.execute("select sum(size_bytes) - 1 from export_loads "
                               "where read_by = 'staging' and problem is null").fetchone()[0]
    proc = run_dbt(["compile", "--full-refresh", "-s", "stg_exports__rows", "--vars",
                    f"{{{limit}, direct_read_buffer_bytes: {in_place}}}"],
                   env_for(tmp_path, inputs, "direct.duckdb"))
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "materialized" not in staging_sql(tmp_path / "direct")
    with duckdb.connect(str(tmp_path / "direct.duckdb"), read_only=True) as con:
        con.execute(f"attach '{tmp_path / 'landed.duckdb'}' as landed (read_only)")
        read_from = dict(con.execute("select read_from, count(*) from export_loads "
                                     "where read_by = 'staging' group by all").fetchall())
        # the loader reads no row: transcoded, normalized and xlsx copies are read in place
        assert read_from["original"] >= 20 and read_from["transcoded"] == 3, read_from
        assert read_from["normalized"] == 1 and read_from["xlsx"] >= 1, read_from
        assert con.execute("select count(*) from duckdb_tables() where database_name = "
                           "'direct' and schema_name = 'raw' and table_name = 'export_rows'"
                           ).fetchone()[0] == 0
        rejected = con.execute(
            "select source_file, record_no, line_no, reject_code from stg_exports__rows "
            "where source_file in ('plan_agent_wide.csv', 'plan_agent_long.csv', "
            "'plan_agent_not_utf8_byte.csv') and reject_code like 'csv_%' order by all"
        ).fetchall()
        sample = (SAMPLES / "plan_agent_sample.csv").read_text(encoding="utf-8-sig")
        lines = sample.count("\n") + 1  # the added record's line
        # the line the sample's last record starts on (its cells hold line breaks)
        reader, starts = csv.reader(io.StringIO(sample)), []
        for _ in reader:
            starts.append(reader.line_num)
        last = starts[-2] + 1
        assert rejected == [
            ("plan_agent_long.csv", 41, lines, "csv_line_too_long"),
            ("plan_agent_not_utf8_byte.csv", 40, last, "csv_invalid_encoding"),
            ("plan_agent_wide.csv", 41, lines, "csv_too_many_columns")]
        assert con.execute(
            "select list(distinct source_file order by source_file), count(*) "
            "from stg_exports__rows where source_file in ('plan_agent_wide.csv', "
            "'plan_agent_long.csv') and reject_code is null").fetchone() == (
            ["plan_agent_long.csv", "plan_agent_wide.csv"], 80)
        settled = dict(con.execute(
            "select source_file, (read_by, file_reject_code) from export_loads "
            "inner join input_files using (source_file) "
            "where source_file in ('plan_agent_lf_unterminated.csv', "
            "'plan_agent_lf_space_quote.csv', 'plan_agent_lf_mid_quote.csv', "
            "'plan_agent_blank_lines.csv', 'plan_agent_ragged_rows.csv', "
            "'plan_agent_cut_off.csv')").fetchall())
        assert settled == {
            # its last quote never closes: a read of several files loses that reject
            "plan_agent_cut_off.csv": ("staging", None),
            "plan_agent_lf_mid_quote.csv": ("staging", None),
            "plan_agent_lf_unterminated.csv": ("staging", None),
            "plan_agent_lf_space_quote.csv": ("staging", "ambiguous_records"),
            "plan_agent_blank_lines.csv": ("staging", None),
            "plan_agent_ragged_rows.csv": ("staging", None)}
        assert con.execute("select list(record_no order by record_no) from rejected_rows "
                           "where source_file = 'plan_agent_blank_lines.csv'"
                           ).fetchone()[0] == [2, 3]
        assert con.execute("select rows_read, rows_rejected from input_files "
                           "where source_file = 'plan_agent_lf_mid_quote.csv'"
                           ).fetchone() == (4, 0)
        assert con.execute("select reject_reason from rejected_files "
                           "where source_file = 'plan_agent_lf_space_quote.csv'"
                           ).fetchone()[0].startswith(
            "records are ambiguous: their quotes give 4 records but DuckDB read 7 (first "
            "unparsable record on line ")
        tables = [row[0] for row in con.execute(
            "select table_name from duckdb_tables() where database_name = 'direct' "
            "and schema_name = 'main' order by all").fetchall() if row[0] not in SKIPPED]
        assert "stg_exports__rows" in tables and len(tables) > 40
        for table in tables:
            columns = ", ".join(f'"{row[0]}"' for row in con.execute(
                f"describe main.{table}").fetchall() if row[0] not in VOLATILE)
            for a, b in (("direct", "landed"), ("landed", "direct")):
                only = con.execute(
                    f"select count(*) from (select {columns} from {a}.main.{table} "
                    f"except all select {columns} from {b}.main.{table})").fetchone()[0]
                assert only == 0, f"{table}: {only} row(s) only in {a}"
