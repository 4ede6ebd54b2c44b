"""Bad input never crashes silently and never loses a row (SCORING §0).

The corpus ``tests/corpus/files/main`` (plus a 10 MB cell written at test time) is built
once with ``dbt build``; every case has its designed outcome: scored (with status and
reason), a row in ``rejected_rows``, or a file in ``rejected_files``. See the table in
``tests/corpus/make_corpus.py``.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest
from agent_scoring.cli import main
from agent_scoring.reports.data_quality import data_quality
from click.testing import CliRunner
from corpus import make_corpus
from markdown_it import MarkdownIt
from support.warehouse import all_rows, dbt_env, one, run_dbt

CORPUS = make_corpus.FILES / "main"
PARSER = MarkdownIt("commonmark").enable("table")
EXPORT_AGENTS = ("plan_agent", "resume_agent")


@dataclass(frozen=True)
class Build:
    db: Path
    inputs: Path
    work: Path
    log: str
    returncode: int


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Build:
    work = tmp_path_factory.mktemp("bad_input")
    inputs = work / "input"
    shutil.copytree(CORPUS, inputs)
    make_corpus.huge_cell_file(inputs)
    db = work / "warehouse.duckdb"
    proc = run_dbt(["build", "--exclude", "tag:rag"], dbt_env(inputs, db, work))
    return Build(db, inputs, work, proc.stdout + proc.stderr, proc.returncode)


@pytest.fixture()
def con(build):
    assert build.returncode == 0, build.log[-6000:]
    with duckdb.connect(str(build.db), read_only=True) as connection:
        yield connection


def file_info(con, name: str) -> dict:
    return one(con, "select * from stg_exports__files where source_file = ?", [name])


def scored(con, name: str) -> list[dict]:
    return all_rows(
        con, "select * from item_scores where source_file = ? order by record_no", [name]
    )


def rejected(con, name: str) -> list[dict]:
    return all_rows(
        con,
        "select * from rejected_rows where source_file = ? order by record_no, line_no",
        [name],
    )


def rejected_file(con, name: str) -> dict:
    return one(con, "select * from rejected_files where source_file = ?", [name])


def rejects(con, name: str) -> list[tuple]:
    return [(r["record_no"], r["line_no"], r["reject_code"]) for r in rejected(con, name)]


def record_numbers(con, name: str) -> list[int]:
    return [r["record_no"] for r in scored(con, name)]


# --- the build as a whole ----------------------------------------------------------------


def test_the_whole_corpus_builds_with_only_the_designed_warning(build):
    assert build.returncode == 0, build.log[-6000:]
    assert re.search(r"PASS assert_every_csv_row_is_scored_or_rejected", build.log)
    assert re.search(r"WARN \d+ warn_export_rows_were_rejected", build.log)
    assert "ERROR=0" in build.log and "WARN=1 " in build.log


def test_the_committed_corpus_is_what_make_corpus_writes(tmp_path):
    written = make_corpus.write_corpus(tmp_path / "files")
    fresh = {p.relative_to(tmp_path / "files"): p.read_bytes() for p in written}
    committed = {
        p.relative_to(make_corpus.FILES): p.read_bytes()
        for p in make_corpus.FILES.rglob("*.csv")
    }
    assert fresh == committed


def test_every_file_read_reconciles_rows_read_with_scored_plus_rejected(con):
    files = all_rows(con, "select * from input_files where file_reject_code is null")
    assert len(files) >= 20
    for f in files:
        assert f["rows_read"] == f["rows_scored"] + f["rows_rejected"], f["source_file"]
    direct = all_rows(
        con,
        """
        select f.source_file, f.rows_read as csv_records,
               (select count(*) from item_scores i where i.source_file = f.source_file) as s,
               (select count(*) from rejected_rows r where r.source_file = f.source_file) as r
        from input_files f where f.rows_unaccounted is not null
        """,
    )
    assert len(direct) >= 20
    assert [d for d in direct if d["csv_records"] != d["s"] + d["r"]] == []


def test_a_rejected_row_is_never_also_scored(con):
    both = all_rows(
        con,
        """
        select r.source_file, r.record_no
        from rejected_rows r
        join item_scores i on i.source_file = r.source_file and i.record_no = r.record_no
        """,
    )
    assert both == []


def test_the_reconciliation_test_fails_when_one_scored_row_goes_missing(build, tmp_path):
    tampered = tmp_path / "tampered.duckdb"
    shutil.copy(build.db, tampered)
    with duckdb.connect(str(tampered)) as c:
        c.execute(
            # item_scores is a view of the agents' tables
            "delete from int_plan_agent__item_scores where source_file = 'plan_agent_cp949.csv' "
            "and record_no = 3"
        )
    proc = run_dbt(
        ["test", "--select", "assert_every_csv_row_is_scored_or_rejected", "--store-failures"],
        dbt_env(build.inputs, tampered, tmp_path),
    )
    assert proc.returncode != 0
    assert re.search(r"FAIL 1 assert_every_csv_row_is_scored_or_rejected", proc.stdout)
    with duckdb.connect(str(tampered), read_only=True) as c:
        failures = all_rows(
            c, "select * from main_dbt_test__audit.assert_every_csv_row_is_scored_or_rejected"
        )
    assert failures == [{
        "source_file": "plan_agent_cp949.csv",
        "csv_records": 4,
        "rows_scored": 3,
        "rows_rejected": 0,
        "rows_unaccounted": 1,
    }]


def test_the_row_rules_test_names_each_broken_expression_and_repeated_key(build, tmp_path):
    # a model's key is tested by unique_combination_of_columns (its failing row is the key
    # and how often it occurs); `holds` names each broken expression, and each repeated key
    # of the seeds that state their keys with it (rag_categories: built here by hand, the
    # corpus build leaves the RAG out)
    tampered = tmp_path / "tampered.duckdb"
    shutil.copy(build.db, tampered)
    row = "source_file = 'plan_agent_cp949.csv' and record_no = 3"
    with duckdb.connect(str(tampered)) as c:
        c.execute(f"insert into stg_exports__rows select * from stg_exports__rows where {row}")
        c.execute("update stg_exports__rows set raw_json_is_valid = null "
                  "where source_file = 'plan_agent_cp949.csv' and record_no = 1")
        c.execute("create table rag_categories as select * from (values "
                  "('in_domain', '도메인 내', 1), ('in_domain', '도메인 안', 2)) "
                  "as t(category, label_ko, sort_order)")
    tests = ["stg_exports__rows__rows_hold", "stg_exports__rows__unique_key",
             "rag_categories__rows_hold"]
    proc = run_dbt(["test", "--select", *tests, "--store-failures"],
                   dbt_env(build.inputs, tampered, tmp_path))
    assert proc.returncode != 0
    for test in tests:
        assert re.search(rf"FAIL 1 {test}\b", proc.stdout), proc.stdout[-3000:]
    with duckdb.connect(str(tampered), read_only=True) as c:
        audit = {test: all_rows(c, f"select * from main_dbt_test__audit.{test}")
                 for test in tests}
    assert audit == {
        "stg_exports__rows__rows_hold": [
            {"expectation": "raw_json_is_valid is not null", "rows_breaking": 1,
             "repeated_value": None},
        ],
        "stg_exports__rows__unique_key": [
            {"source_file": "plan_agent_cp949.csv", "record_no": 3, "line_no": None,
             "occurrences": 2},
        ],
        "rag_categories__rows_hold": [
            {"expectation": "unique: category", "rows_breaking": 2,
             "repeated_value": "in_domain"},
        ],
    }


def test_duckdb_drops_every_record_after_a_bad_one_unless_it_stores_rejects(tmp_path):
    # why read_options always carries store_rejects = true (DuckDB 2.0)
    path = tmp_path / "x.csv"
    path.write_text('a,b\r\n1,x\r\n2,"bro"ken\r\n3,y\r\n4,z\r\n', encoding="utf-8")
    options = (
        "header = true, auto_detect = false, delim = ',', quote = '\"', escape = '\"', "
        "ignore_errors = true, columns = {'a': 'VARCHAR', 'b': 'VARCHAR'}"
    )
    with duckdb.connect() as c:
        silent = c.sql(f"select a from read_csv('{path}', {options})").fetchall()
        stored = c.sql(
            f"select a from read_csv('{path}', {options}, store_rejects = true)"
        ).fetchall()
    assert len(stored) == 3 and ("4",) in stored
    assert len(silent) <= len(stored)


# --- encodings ---------------------------------------------------------------------------


def test_a_cp949_file_is_transcoded_and_its_korean_text_is_intact(con):
    info = file_info(con, "plan_agent_cp949.csv")
    assert (info["encoding"], info["read_from"]) == ("cp949", "transcoded")
    rows = scored(con, "plan_agent_cp949.csv")
    assert [r["query_text"] for r in rows[:2]] == [
        "채용공고 1번 사이트를 추천해 줘", "채용공고 2번 사이트를 추천해 줘",
    ]
    assert {r["intent_score"] for r in rows} == {5.0}


def test_a_file_that_is_not_valid_cp949_throughout_is_refused_not_guessed(con):
    refused = rejected_file(con, "plan_agent_cp949_corrupt.csv")
    assert refused["reject_code"] == "undecodable"
    assert refused["reject_reason"].startswith("file is not valid cp949 at byte ")
    assert scored(con, "plan_agent_cp949_corrupt.csv") == []


@pytest.mark.parametrize(
    ("name", "encoding", "read_from"),
    [
        ("plan_agent_utf8_no_bom.csv", "utf-8", "original"),
        ("plan_agent_utf16.csv", "utf-16", "transcoded"),
        ("plan_agent_utf16le_no_bom.csv", "utf-16-le", "transcoded"),
    ],
)
def test_utf8_without_bom_and_utf16_are_scored_like_the_real_exports(con, name, encoding,
                                                                      read_from):
    info = file_info(con, name)
    assert (info["encoding"], info["read_from"]) == (encoding, read_from)
    assert [(r["item_id"], r["status"], r["intent_score"]) for r in scored(con, name)] == [
        ("item-01-1-1", "ok", 5.0), ("item-02-1-1", "ok", 5.0),
        ("item-01-2-1", "ok", 5.0), ("item-02-2-1", "ok", 5.0),
    ]


def test_a_utf8_file_with_one_cp949_row_rejects_that_row_only(con):
    name = "plan_agent_mixed_encoding.csv"
    assert rejects(con, name) == [(120, 478, "csv_invalid_encoding")]
    rows = scored(con, name)
    assert len(rows) == 119
    assert not any("\ufffd" in (r["query_text"] or "") for r in rows)


def test_a_file_in_no_known_encoding_is_refused(con):
    assert rejected_file(con, "plan_agent_not_text.csv")["reject_code"] == "undecodable"


# --- CSV structure -----------------------------------------------------------------------


def test_records_ending_in_both_crlf_and_lf_are_read_through_a_normalized_copy(con):
    name = "plan_agent_mixed_newlines.csv"
    assert file_info(con, name)["read_from"] == "normalized"
    rows = scored(con, name)
    assert record_numbers(con, name) == [1, 2, 3, 4]
    # line breaks inside cells are kept as written
    assert [r["query_text"] for r in rows[:2]] == ["첫 줄\n둘째 줄", "첫 줄\r\n둘째 줄"]


def test_a_quote_closed_mid_cell_rejects_that_record_with_its_line(con):
    name = "plan_agent_broken_quote.csv"
    assert rejects(con, name) == [(2, 6, "csv_bad_quote")]
    assert rejected(con, name)[0]["reject_reason"].startswith(
        "CSV record on line 6 cannot be parsed: Value with unterminated quote"
    )
    assert record_numbers(con, name) == [1, 3, 4]


def test_a_quote_that_never_closes_mid_file_refuses_the_file_rather_than_half_read_it(con):
    refused = rejected_file(con, "plan_agent_unterminated_quote.csv")
    assert refused["reject_code"] == "ambiguous_records"
    assert "first unparsable record on line 6" in refused["reject_reason"]
    assert scored(con, "plan_agent_unterminated_quote.csv") == []


def test_a_file_cut_off_inside_its_last_record_scores_the_others(con):
    name = "plan_agent_cut_off.csv"
    assert rejects(con, name) == [(4, 14, "csv_bad_quote")]
    assert record_numbers(con, name) == [1, 2, 3]


def test_records_with_a_field_too_many_or_too_few_are_rejected(con):
    name = "plan_agent_ragged_rows.csv"
    assert rejects(con, name) == [
        (2, 6, "csv_too_many_columns"), (3, 10, "csv_missing_columns"),
    ]
    assert record_numbers(con, name) == [1, 4]


def test_unknown_columns_are_ignored_and_listed(con):
    info = one(con, "select * from input_files where source_file = ?",
               ["plan_agent_extra_columns.csv"])
    assert info["unknown_columns"] == ["Tester", "Note"]
    assert info["rows_scored"] == 4


def test_columns_in_another_order_score_exactly_as_in_header_order(con):
    def figures(name):
        return [(r["item_id"], r["check_passed"], r["intent_score"], r["response_time_sec"])
                for r in scored(con, name)]

    assert figures("plan_agent_reordered_columns.csv") == figures("plan_agent_utf8_no_bom.csv")


def test_header_names_with_stray_spaces_are_trimmed(con):
    info = file_info(con, "plan_agent_header_spaces.csv")
    assert info["header_names"] == make_corpus.PLAN_HEADER
    assert info["missing_columns"] == []
    assert len(scored(con, "plan_agent_header_spaces.csv")) == 4


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("plan_agent_empty.csv", "empty_file"),
        ("plan_agent_bom_only.csv", "empty_file"),
        ("plan_agent_header_only.csv", "no_data_rows"),
        ("plan_agent_duplicate_header.csv", "duplicate_column"),
    ],
)
def test_files_without_scorable_rows_are_listed_in_rejected_files(con, name, code):
    assert rejected_file(con, name)["reject_code"] == code
    assert scored(con, name) == []


# --- row rules ---------------------------------------------------------------------------


def test_a_repeated_item_id_keeps_the_first_row_and_rejects_the_later_ones(con):
    name = "plan_agent_duplicate_item_ids.csv"
    assert rejects(con, name) == [(5, None, "duplicate_item_id"), (6, None, "duplicate_item_id"),
                                  (7, None, "bad_round_label")]
    assert [r["reject_reason"] for r in rejected(con, name)][:2] == [
        "Item ID repeats record 1: only the first is scored",
        "Item ID repeats record 2: only the first is scored",
    ]
    # record 7 repeats nothing and is repeated by none: another rule rejected it
    assert record_numbers(con, name) == [1, 2, 3, 4, 8]


def test_rows_without_item_id_or_query_id_are_rejected(con):
    assert rejects(con, "plan_agent_missing_keys.csv") == [
        (5, None, "missing_item_id"), (6, None, "missing_query_id"),
    ]


def test_rows_of_only_blank_or_nan_are_rejected_and_a_row_with_keys_is_an_error(con):
    name = "plan_agent_nan_blank.csv"
    assert rejects(con, name) == [(5, None, "empty_row"), (6, None, "empty_row"),
                                  (7, None, "empty_row")]
    keys_only = scored(con, name)[-1]
    assert (keys_only["record_no"], keys_only["item_id"]) == (8, "item-keys-only")
    assert (keys_only["status"], keys_only["error_message"]) == ("error", "Raw JSON missing")
    assert keys_only["intent_score"] == 0


def test_round_labels_other_than_room_slash_repeat_are_rejected(con):
    name = "plan_agent_bad_round_label.csv"
    assert [(r["record_no"], r["reject_code"], r["round_label"])
            for r in rejected(con, name)] == [
        (5, "bad_round_label", "1회차"),
        (6, "bad_round_label", "1-1"),
        (7, "bad_round_label", "round 2"),
        (8, "missing_round_label", None),
    ]
    padded = scored(con, name)[3]
    assert (padded["record_no"], padded["round_label"], padded["round_room"]) == (4, "2/1", 2)


def test_a_query_id_in_one_round_only_is_scored_but_not_eligible(con):
    name = "plan_agent_one_round_query.csv"
    verdict = one(con, "select * from query_consistency where source_file = ? and track = 'all' "
                       "and query_id = 'Q-03'", [name])
    assert (verdict["round_count"], verdict["verdict"]) == (1, "not_eligible")
    assert len(scored(con, name)) == 5


def test_resume_rows_follow_the_same_rules(con):
    name = "resume_agent_bad_rows.csv"
    assert rejects(con, name) == [(7, None, "bad_round_label"), (8, None, "duplicate_item_id")]
    rows = {r["record_no"]: r for r in scored(con, name)}
    assert rows[5]["track"] is None and rows[5]["status"] == "ok"
    assert rows[6]["used_response_fallback"] and rows[6]["status"] == "ok"


# --- Raw JSON ----------------------------------------------------------------------------


def test_raw_json_cut_at_32767_characters_is_an_error_that_says_so(con):
    first = scored(con, "plan_agent_truncated_json.csv")[0]
    assert first["status"] == "error"
    assert first["error_message"] == "Raw JSON unparsable (truncated at 32,767 chars?)"
    assert first["intent_score"] == 0 and first["stability_score"] == 0


def test_raw_json_that_is_not_an_object_is_an_error_naming_its_shape(con):
    assert [(r["status"], r["error_message"])
            for r in scored(con, "plan_agent_raw_json_shapes.csv")] == [
        ("error", "Raw JSON missing"),
        ("error", "Raw JSON is an array, not an object"),
        ("error", "Raw JSON is a number, not an object"),
        ("error", "Raw JSON is a string, not an object"),
        ("error", "Raw JSON is a boolean, not an object"),
        ("error", "Raw JSON unparsable"),
    ]


def test_expected_result_json_with_keys_that_are_no_json_path_scores_its_checks(con):
    rows = scored(con, "plan_agent_json_expected_odd_keys.csv")
    assert [(r["status"], r["check_count"], r["check_passed"]) for r in rows] == [
        ("ok", 2, 2)] * 4


def test_a_ui_value_sent_as_a_json_string_is_parsed(con):
    rows = scored(con, "plan_agent_ui_value_string.csv")
    assert (rows[0]["check_passed"], rows[0]["intent_score"]) == (3, 5.0)
    # a uiValue string that is not JSON has no fields: both UI checks fail
    assert (rows[1]["check_passed"], rows[1]["status"]) == (1, "ok")


def test_response_time_accepts_numeric_strings_and_drops_negative_nan_and_text(con):
    assert [(r["response_time_sec"], r["speed_points"])
            for r in scored(con, "plan_agent_response_time.csv")] == [
        (7.5, 4),        # "7.5"
        (None, None),    # -3
        (None, None),    # NaN
        (None, None),    # "NaN"
        (None, None),    # Infinity
        (None, None),    # "abc"
        (12.0, 2),       # 12
        (None, None),    # null
    ]


def test_a_10_mb_cell_is_read_and_its_keyword_at_the_very_end_is_found(con):
    info = file_info(con, "plan_agent_huge_cell.csv")
    assert info["size_bytes"] > 10_000_000 and info["csv_records"] == 4
    first = scored(con, "plan_agent_huge_cell.csv")[0]
    assert (first["status"], first["check_passed"], first["intent_score"]) == ("ok", 3, 5.0)


# --- reports -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reports(build, tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("reports")
    # the export agents only: this build leaves out the RAG models (tag:rag)
    agents = [arg for agent in EXPORT_AGENTS for arg in ("--agent", agent)]
    result = CliRunner().invoke(main, [*agents, "--db", str(build.db), "--out", str(out)])
    # every report is written; the refused files are named on stderr, so the exit is 1
    assert result.exit_code == 1, result.output
    with duckdb.connect(str(build.db), read_only=True) as c:
        refused = [r[0] for r in c.sql("select source_file from rejected_files "
                                       "where agent <> '(unclaimed)' order by 1").fetchall()]
    assert refused and all(f"refused {name} (" in result.stderr for name in refused)
    return {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}


def test_score_report_renders_a_report_for_every_scorable_file(build, reports):
    with duckdb.connect(str(build.db), read_only=True) as c:
        scorable = {
            r[0] for r in c.sql(
                "select distinct agent || ':' || source_file from item_scores"
            ).fetchall()
        }
    expected = {
        Path(s.split(":", 1)[1]).stem + "_score_summary.md"
        for s in scorable if s.split(":", 1)[0] in EXPORT_AGENTS
    }
    assert "plan_agent_nasty_text_score_summary.md" in expected
    assert set(reports) == expected


def tables(text: str) -> list[list[list[str]]]:
    """Every table as rows of the text a reader sees in each cell."""
    found, rows = [], None
    for token in PARSER.parse(text):
        if token.type == "table_open":
            rows = []
        elif token.type == "table_close":
            found.append(rows)
            rows = None
        elif token.type == "tr_open" and rows is not None:
            rows.append([])
        elif token.type == "inline" and rows is not None:
            rows[-1].append("".join(c.content for c in token.children or []))
    return found


def unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def test_every_table_row_has_as_many_cells_as_its_header(reports):
    for name, text in reports.items():
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")):
                header_pipes = unescaped_pipes(line)
                for row in lines[i + 1:]:
                    if not row.startswith("|"):
                        break
                    assert unescaped_pipes(row) == header_pipes, (name, row[:120])


def flat(text: str) -> str:
    return re.sub(r"\r\n|\r|\n", " ", text).strip()


def test_nasty_message_text_is_shown_literally_in_the_report_tables(reports):
    text = reports["plan_agent_nasty_text_score_summary.md"]
    mismatched = next(t for t in tables(text) if t[0][:2] == ["Query ID", "질의"])
    assert mismatched[1] == [
        "Q|1 <i>x</i>", flat(make_corpus.NASTY), "1/1=3 (ok), 2/1=0 (error)",
    ]
    failures = next(t for t in tables(text) if t[0][:2] == ["상태", "패턴"])
    assert failures[1][0] == "error" and failures[1][-1] == "Q|1 <i>x</i>"
    assert failures[1][1].startswith("HTTP N: a | b || c\\|d lineN lineN <script>")


def test_the_data_quality_section_lists_rejects_by_reason(reports):
    text = reports["plan_agent_bad_round_label_score_summary.md"]
    assert "- 읽은 행 8 = 채점 4 + 제외 4" in text
    by_reason = next(t for t in tables(text) if t[0][0] == "사유 코드")
    assert [row[:2] for row in by_reason[1:]] == [["bad_round_label", "3"],
                                                   ["missing_round_label", "1"]]
    assert by_reason[1][2] == '방/반복 "1회차" is not room/repeat like 1/1'
    assert by_reason[1][3] == "#5, #6, #7"


def test_the_data_quality_section_lists_one_round_queries_and_unequal_rounds(reports):
    text = reports["plan_agent_one_round_query_score_summary.md"]
    assert "- 회차별 문항 수가 다름: 1/1 3개, 2/1 2개" in text
    single = next(t for t in tables(text) if t[0] == ["Query ID", "회차", "질의"])
    assert single[1:] == [["Q-03", "1/1", "채용공고 3번 사이트를 추천해 줘"]]


def test_data_quality_locates_csv_rejects_by_record_and_line(con):
    dq = data_quality(con, "plan_agent", "plan_agent_ragged_rows.csv")
    file = dq["file"]
    assert (file["rows_read"], file["rows_scored"], file["rows_rejected"], file["reconciled"]) == (
        4, 2, 2, True)
    rejected = dq["rejected_by_reason"]
    assert [(r["reject_code"], r["row_count"], r["locations"]) for r in rejected] == [
        ("csv_missing_columns", 1, ["#3 (line 10)"]),
        ("csv_too_many_columns", 1, ["#2 (line 6)"]),
    ]


def test_data_quality_says_when_the_warehouse_predates_the_reject_marts():
    with duckdb.connect() as c:
        c.execute("create table item_scores (agent varchar)")
        assert data_quality(c, "plan_agent", "x.csv") == {
            "available": False, "missing_table": "report_input_files",
        }


def test_the_corpus_built_into_a_site_executes_nothing(build, tmp_path):
    """Every file of the corpus, markup in its queries, replies and errors included, as the
    run browser shows it: escaped in every page, and nothing runs in a real browser."""
    from agent_scoring.site.build import build as build_site
    from agent_scoring.site.html import CSP
    from support.site import CHROMIUM, chromium, parsed

    assert build.returncode == 0, build.log[-6000:]
    with duckdb.connect(str(build.db), read_only=True) as connection:
        site = build_site(connection, tmp_path / "site", (), echo=lambda _: None).root
    pages = sorted(site.rglob("*.html"))
    for path in pages:
        page = parsed(path)
        assert page.csp == CSP and page.inline_scripts == 0 and not page.handlers, path
        assert {"b", "img", "iframe"}.isdisjoint(page.tags), path  # the corpus's markup
    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium for the in-browser half")
    with chromium() as browser:
        for path in pages:
            context = browser.new_context()
            page = context.new_page()
            ran: list[str] = []
            page.on("dialog", lambda d, ran=ran: (ran.append(d.message), d.dismiss()))
            page.on("pageerror", lambda e, ran=ran: ran.append(str(e)))
            page.goto(path.as_uri() + ("#r=1" if path.name == "item.html" else ""))
            page.wait_for_load_state("load")
            page.wait_for_timeout(100)
            assert ran == [] and page.evaluate("document.querySelectorAll('b, img').length") == 0
            context.close()
