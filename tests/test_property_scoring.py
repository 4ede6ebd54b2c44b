"""Whatever an export row holds, the scoring SQL neither fails nor leaves 0-5 (hypothesis).

The project is built once on a tiny export and four generated files; then, for every
generated batch of rows, the rows are written into those files (CSV, as the platform exports
them) and the *compiled SQL of the real models* - DuckDB's read, row rules, staging (one
Raw JSON parse), check parser, check evaluation, item scores, every mart - is run again in
DAG order on that warehouse.
Properties: no statement raises; every score is in 0-5 (or null where unscored); statuses
and sources are known values; and every generated row is either scored or rejected.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from corpus import make_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.warehouse import dbt_env, run_dbt

REPO = Path(__file__).resolve().parents[1]

# Models after the CSV reader, in an order that respects their refs.
MODELS = [
    "stg_exports__files",
    "stg_exports__rows",
    "int_exports__results",
    "int_plan_agent__check_results",
    "int_plan_agent__item_scores",
    "int_resume_agent__item_scores",
    "url_agent__url_matches",
    "int_url_agent__item_scores",
    "int_scoring__item_scores",
    "item_scores",
    "int_scoring__round_figures",
    "int_scoring__query_verdicts",
    "check_results",
    "query_consistency",
    "consistency",
    "round_scores",
    "set_scores",
    "rejected_rows",
]
SCORE_COLUMNS = {
    "item_scores": ["heuristic_score", "llm_score", "intent_score", "accuracy_score",
                    "stability_score", "speed_points"],
    "round_scores": ["intent_score", "accuracy_score", "stability_score", "speed_points",
                     "item_speed_points_mean"],
    "set_scores": ["intent_score", "accuracy_score", "stability_score", "speed_points",
                   "item_speed_points_mean", "consistency_score"],
    "consistency": ["consistency_score"],
}
FILES = {"plan_agent": ["plan_agent_prop_a.csv", "plan_agent_prop_b.csv"],
         "resume_agent": ["resume_agent_prop.csv"], "url_agent": ["url_agent_prop.csv"]}
# the cells of an export (macro export_text_columns) and Raw JSON, each under its header
COLUMNS = ["run_id", "item_id", "ordinal", "query_id", "query_text", "expected_result",
           "category", "round_label", "executed_at", "track", "response_text", "error_text",
           "logic_result", "logic_reason", "llm_status", "llm_model", "llm_score",
           "llm_comment", "raw_json"]


def headers() -> dict[str, str]:
    """English column -> its header name (seeds/export_columns.csv: the first that gives it)."""
    with open(REPO / "seeds" / "export_columns.csv", encoding="utf-8") as handle:
        pairs = [(row["column_name"], row["header_name"]) for row in csv.DictReader(handle)]
    return {column: header for column, header in reversed(pairs)}


def write_files(inputs: Path, rows_by_file: dict[str, list[list[str]]]) -> None:
    header = [headers()[column] for column in COLUMNS]
    for names in FILES.values():
        for name in names:
            with open(inputs / name, "w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(header)
                writer.writerows(rows_by_file.get(name, []))


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    """A built warehouse whose scoring models can be re-run on generated rows."""
    work = tmp_path_factory.mktemp("property")
    inputs = work / "input"
    inputs.mkdir()
    shutil.copy(make_corpus.FILES / "main" / "plan_agent_utf8_no_bom.csv", inputs)
    shutil.copy(make_corpus.FILES / "missing_column" / "resume_agent_complete.csv", inputs)
    one = ["run-1", "i-1", "1", "Q-1", "질의", "", "", "1/1", "", "Track 1", "", "", "", "", "",
           "", "", "", "{}"]
    write_files(inputs, {name: [one] for names in FILES.values() for name in names})
    db = work / "build" / "warehouse.duckdb"
    db.parent.mkdir()
    # each file a read of its own: a file's rows are numbered from 1 whatever the others hold
    proc = run_dbt(["build", "--exclude", "tag:rag", "--vars", "{direct_read_groups: 1000}"],
                   dbt_env(inputs, db, work))
    assert proc.returncode == 0, proc.stdout[-4000:]
    compiled = {}
    for name in MODELS:
        found = [  # not the fixtures dbt compiles for unit tests (under <file>.yml/)
            path for path in (work / "target" / "compiled").rglob(f"{name}.sql")
            if not path.parent.name.endswith(".yml")
        ]
        assert len(found) == 1, name
        compiled[name] = found[0].read_text(encoding="utf-8")
    con = duckdb.connect(str(db))
    assert sorted(row[0] for row in con.execute(
        "select source_file from export_loads where read_by = 'staging' "
        "and source_file like '%prop%'").fetchall()) == sorted(
        name for names in FILES.values() for name in names)
    for (view,) in con.sql("select view_name from duckdb_views() where not internal "
                           "and schema_name = 'main'").fetchall():
        con.execute(f"drop view {view}")  # re-run below as tables
    yield con, compiled, inputs
    con.close()


# --- strategies --------------------------------------------------------------------------

TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               max_size=40)
MISSING = st.sampled_from([None, "", "  ", "nan", "NaN", "None", "null"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats() | TEXT,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=10,
)
CHECK_KEYS = st.sampled_from([
    "assistantMessage", "assistantMessageContains", "message", "formType", "FORMTYPE",
    "actionType", "multiSelectAllowYn", "dataKey", "buttonKey", "buttonUrl",
    "buttonUrlContains", "unknownKey", 'we"ird', "$.x", "a.b[0]", "",
])
CHECK_VALUES = st.one_of(
    TEXT, st.sampled_from(["SELECT", "select ", "true", "Y", "no", "0", "채용공고", "%zz", ""])
)
QUOTE = st.sampled_from(['"', "“", "”", "'", ""])
PROSE_LINE = st.builds(
    lambda n, key, q1, value, q2: f"{n}) 해당 항목의 {key} 값이 {q1}{value}{q2}인가",
    st.integers(0, 99), CHECK_KEYS, QUOTE, CHECK_VALUES, QUOTE,
)
MACHINE_LINE = st.builds(
    lambda pairs, sep: "@check " + sep.join(f"{k}={v}" for k, v in pairs),
    st.lists(st.tuples(CHECK_KEYS, CHECK_VALUES), max_size=4), st.sampled_from(["; ", ";", " "]),
)
KEY_VALUE_LINE = st.builds(
    lambda key, sep, value: f"{key}{sep}{value}",
    CHECK_KEYS, st.sampled_from(["=", ":", " = ", ": "]), CHECK_VALUES,
)
URLS = st.builds(
    lambda host, parts, key, tail: f"{host}/{'/'.join(parts)}{key}{tail}",
    st.sampled_from(["", "https://h", "http://h:80", "ftp://x"]),
    st.lists(st.sampled_from(["recruit-plan", "{planId}", "7", "a.b", "(x)", "%2F", "+", "*"]),
             max_size=4),
    st.sampled_from(["", "?dataKey=A_B", "?x=1&dataKey=%5Fz", "?dataKey=", "?dataKey=A&dataKey=B"]),
    st.sampled_from(["", "/", "#f", "//", "?"]),
)
URL_LINE = st.builds(lambda url: f"기대 URL: {url}", URLS)
EXPECTED = st.one_of(
    MISSING,
    URL_LINE,
    TEXT,
    st.dictionaries(CHECK_KEYS | TEXT, CHECK_VALUES | JSON_VALUES, max_size=4).map(json.dumps),
    st.lists(st.one_of(PROSE_LINE, MACHINE_LINE, KEY_VALUE_LINE, TEXT), max_size=6)
    .map("\n".join),
)
UI_VALUE = st.fixed_dictionaries(
    {},
    optional={
        "formType": CHECK_VALUES | JSON_VALUES,
        "actionType": CHECK_VALUES,
        "multiSelectAllowYn": st.booleans() | CHECK_VALUES,
        "buttonUrl": CHECK_VALUES | URLS,
        "value": st.fixed_dictionaries({}, optional={"dataKey": CHECK_VALUES | JSON_VALUES,
                                                      "buttonKey": CHECK_VALUES}),
    },
)
UI_ENTRY = st.one_of(
    st.fixed_dictionaries({"uiValue": UI_VALUE | UI_VALUE.map(json.dumps) | JSON_VALUES}),
    JSON_VALUES,
)
PAYLOAD = st.fixed_dictionaries(
    {},
    optional={
        "assistantMessage": TEXT | JSON_VALUES,
        "dataUIList": st.lists(UI_ENTRY, max_size=4) | JSON_VALUES,
        "responseTimeSec": st.floats() | st.integers(-100, 10**6) | TEXT
        | st.sampled_from(["7.5", " 3 ", "NaN", "-1", "1e400"]),
        "error": TEXT | JSON_VALUES,
        "executionProcesses": st.lists(JSON_VALUES, max_size=3) | JSON_VALUES,
        "worker": st.lists(TEXT, max_size=3) | JSON_VALUES,
    },
)
RAW_JSON = st.one_of(
    MISSING,
    TEXT,
    JSON_VALUES.map(json.dumps),
    PAYLOAD.map(json.dumps),
    st.tuples(PAYLOAD.map(json.dumps), st.integers(0, 200)).map(lambda t: t[0][: t[1]]),
)
ITEM_IDS = st.sampled_from([f"i-{n}" for n in range(1, 30)] + [" i-1 "])
QUERY_IDS = st.sampled_from(["Q-1", "Q-2", "Q-3", "F-01", "T-9"])
ROUNDS = st.sampled_from(["1/1", "2/1", "1/2", " 2/1 ", "10/3", "0/0"])
ROW = st.fixed_dictionaries({
    "agent": st.sampled_from(sorted(FILES)),
    "file_no": st.integers(0, 1),
    "run_id": st.one_of(MISSING, TEXT),
    # mostly valid keys, so that most rows get past the row rules to the check parser
    "item_id": st.one_of(ITEM_IDS, ITEM_IDS, ITEM_IDS, MISSING, TEXT),
    "ordinal": st.one_of(MISSING, st.integers(-5, 99).map(str), TEXT),
    "query_id": st.one_of(QUERY_IDS, QUERY_IDS, QUERY_IDS, MISSING, TEXT),
    "query_text": st.one_of(MISSING, TEXT),
    "expected_result": EXPECTED,
    "category": st.one_of(MISSING, TEXT),
    "round_label": st.one_of(ROUNDS, ROUNDS, ROUNDS, MISSING, TEXT, st.sampled_from(
        ["1회차", "1-1", "99999999999/1", "１/１"])),
    "executed_at": st.one_of(MISSING, TEXT, st.sampled_from(["2026-02-24 10:00:00"])),
    "response_text": st.one_of(MISSING, TEXT, st.sampled_from(["선택해 주세요", "알려주시면"])),
    "error_text": st.one_of(MISSING, TEXT),
    "logic_result": st.one_of(MISSING, TEXT),
    "logic_reason": st.one_of(MISSING, TEXT),
    "llm_status": st.one_of(MISSING, TEXT, st.sampled_from(["ok", "error", "실패", "TIMEOUT"])),
    "llm_model": st.one_of(MISSING, TEXT),
    "llm_score": st.one_of(MISSING, TEXT, st.sampled_from(
        ["0", "5", "2.5", "-1", "6", "NaN", "inf", "1e309", " 4 "])),
    "llm_comment": st.one_of(MISSING, TEXT),
    "raw_json": RAW_JSON,
    "track": st.one_of(MISSING, TEXT, st.sampled_from(["Track 1", "2", "T3", "track 4", "t 1"])),
})


def load(inputs: Path, rows: list[dict]) -> None:
    """The generated rows as the only records of the four files: text cells (a missing one
    empty), in order."""
    rows_by_file: dict[str, list[list[str]]] = {}
    for row in rows:
        source_file = FILES[row["agent"]][min(row["file_no"], len(FILES[row["agent"]]) - 1)]
        values = dict(row)
        if row["agent"] != "resume_agent":
            values["track"] = None
        rows_by_file.setdefault(source_file, []).append(
            ["" if values.get(c) is None else values[c] for c in COLUMNS])
    write_files(inputs, rows_by_file)


PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture])


def rerun(con, compiled: dict[str, str], models: list[str] = MODELS) -> None:
    for name in models:
        con.execute(f"create or replace table main.{name} as {compiled[name]}")


def out_of_range(con, table: str, column: str) -> list:
    return con.sql(
        f"select {column} from {table} where {column} < 0 or {column} > 5 or isnan({column})"
    ).fetchall()


@PROPERTY_SETTINGS
@given(st.lists(ROW, min_size=1, max_size=30))
def test_any_rows_are_scored_in_0_to_5_or_rejected_and_nothing_raises(warehouse, rows):
    con, compiled, inputs = warehouse
    load(inputs, rows)
    rerun(con, compiled)

    for table, score_columns in SCORE_COLUMNS.items():
        for column in score_columns:
            assert out_of_range(con, table, column) == [], (table, column)
    assert con.sql(
        "select distinct status from item_scores "
        "where status not in ('ok', 'partial', 'error', 'empty', 'no_checks')"
    ).fetchall() == []
    assert con.sql(
        "select count(*) from item_scores where score_source not in "
        "('gate', 'llm', 'heuristic', 'none') or score_source is null "
        "or stability_score not in (0, 5)"
    ).fetchall() == [(0,)]
    assert con.sql("select count(*) from check_results where passed is null "
                   "and item_status not in ('error', 'empty')").fetchall() == [(0,)]
    assert con.sql("select count(*) from int_plan_agent__check_results "
                   "where passed is null").fetchall() == [(0,)]

    generated, scored, rejected = con.sql(
        """
        select
            (select count(*) from stg_exports__rows where source_file like '%prop%'),
            (select count(*) from item_scores where source_file like '%prop%'),
            (select count(*) from rejected_rows where source_file like '%prop%')
        """
    ).fetchall()[0]
    assert generated == len(rows)
    assert scored + rejected == generated
    assert con.sql("select count(*) from rejected_rows where reject_reason is null"
                   ).fetchall() == [(0,)]


def test_no_model_after_staging_reads_a_file(warehouse):
    # stg_exports__rows reads every export in place (issue 72); every model after it reads
    # the warehouse
    _, compiled, _ = warehouse
    assert [name for name in MODELS
            if "read_csv" in compiled[name] and name != "stg_exports__rows"] == []


PARSED_FIELDS = "raw_json_is_valid, execution_count, worker_count, assistant_message"


def expected_fields(raw: str | None) -> tuple:
    """What staging keeps of a Raw JSON cell, by Python's json module: whether it is an
    object, the entries of `executionProcesses` and `worker` when each is an array, and the
    message when it is a string or null."""
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        return False, None, None, None

    def entries(key: str) -> int | None:
        return len(parsed[key]) if isinstance(parsed.get(key), list) else None

    return True, entries("executionProcesses"), entries("worker"), parsed.get("assistantMessage")


PAYLOAD_CELL = st.one_of(
    PAYLOAD.map(json.dumps),
    st.tuples(PAYLOAD.map(json.dumps), st.integers(1, 200)).map(lambda t: t[0][: t[1]]),
)


@PROPERTY_SETTINGS
@given(st.lists(PAYLOAD_CELL, min_size=1, max_size=20))
def test_staging_parses_raw_json_as_python_does(warehouse, cells):
    """One parse of a cell gives what Python's json module finds in it: its arrays counted,
    its message kept, a cut or non-object cell invalid."""
    con, compiled, inputs = warehouse
    rows = [{"agent": "plan_agent", "file_no": 0, "item_id": f"i-{n}", "query_id": "Q-1",
             "round_label": "1/1", "raw_json": cell} for n, cell in enumerate(cells)]
    load(inputs, rows)
    rerun(con, compiled, MODELS[:MODELS.index("stg_exports__rows") + 1])
    found = con.execute(f"select {PARSED_FIELDS} from stg_exports__rows "
                        "where source_file like '%prop%' order by record_no").fetchall()
    wanted = [expected_fields(cell) for cell in cells]
    for cell, got, want in zip(cells, found, wanted, strict=True):
        if not isinstance(want[3], str | None):  # a message that is no string: JSON text
            got, want = got[:3], want[:3]
        assert got == want, cell
