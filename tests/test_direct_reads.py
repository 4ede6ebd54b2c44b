"""Issue 41, one read per export: staging reads a plain export in place (the loader only
scans it) and settles its rejects and its count itself, and that gives every model what
landing its rows gave. The same inputs, the
bundled samples and the bad-input corpus, are built twice: once as `dbt build` does by
default, once with every row landed first (as for the Parquet copy of the Spark target).
The first keeps the rows it reads before parsing them (their bytes are under
direct_read_buffer_bytes), the second parses as it reads: that changes no row either.
Staging reads several exports in one read_csv (direct_read_groups), so faulty ones sit
before others in a read: their rows, rejects and the numbers of the rows after them must
come out as a read of each file alone gives them."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
from corpus import make_corpus
from support.rebuild import VOLATILE, build, env_for, project_inputs
from support.warehouse import run_dbt

SKIPPED = {"export_loads", "builds"}


def staging_sql(work: Path) -> str:
    """stg_exports__rows as the last dbt command in `work` compiled it."""
    return next((work / "target" / "compiled").rglob("stg_exports__rows.sql")).read_text()


def test_a_build_reading_exports_in_place_equals_one_that_lands_every_row(tmp_path):
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
    build(tmp_path, inputs, db="direct.duckdb", data_tests=True)
    landing = tmp_path / "landing"
    extra = ["--vars", f"{{landing_dir: '{landing}', direct_read_buffer_bytes: -1}}"]
    build(tmp_path, inputs, *extra, db="landed.duckdb")
    compiled = {name: staging_sql(tmp_path / name) for name in ("direct", "landed")}
    assert "with fresh as materialized (" in compiled["direct"]
    # fewer reads than exports read in place: some reads hold several
    reads = compiled["direct"].count("from read_csv(")
    assert 3 <= reads <= 8, reads
    # ... and the file whose last quote never closes is not the last of its read
    listed = next(part.split("with ordinality")[0]
                  for part in compiled["direct"].split("from read_csv(")
                  if "plan_agent_cut_off.csv" in part.split("with ordinality")[0])
    assert listed.index("plan_agent_cut_off.csv") < listed.index(
        "plan_agent_duplicate_item_ids.csv")
    assert "materialized" not in compiled["landed"]
    # the landed exports' bytes count too: room for the exports read in place alone is not
    # enough
    with duckdb.connect(str(tmp_path / "direct.duckdb"), read_only=True) as con:
        in_place = con.execute("select sum(size_bytes) from raw.export_files "
                               "where read_by = 'staging' and problem is null").fetchone()[0]
    proc = run_dbt(["compile", "--full-refresh", "-s", "stg_exports__rows", "--vars",
                    f"{{direct_read_buffer_bytes: {in_place}}}"],
                   env_for(tmp_path, inputs, "direct.duckdb"))
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "materialized" not in staging_sql(tmp_path / "direct")
    with duckdb.connect(str(tmp_path / "direct.duckdb"), read_only=True) as con:
        con.execute(f"attach '{tmp_path / 'landed.duckdb'}' as landed (read_only)")
        read_by = dict(con.execute("select read_by, count(*) from raw.export_files "
                                   "group by all").fetchall())
        assert read_by["staging"] >= 15 and read_by["loader"] >= 5, read_by
        settled = dict(con.execute(
            "select source_file, (read_by, problem_code) from raw.export_files "
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
            "records are ambiguous: the csv module reads 4 records but DuckDB 7 (first "
            "unparsable record on line ")
        assert con.execute("select count(distinct read_by) from landed.raw.export_files "
                           "where read_by is not null").fetchone()[0] == 1
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
