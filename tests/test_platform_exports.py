"""What the team's platform exports today (issue 13): xlsx beside CSV, per-metric LLM scores,
its LLM 상태 values, and hostile values that must neither crash nor mis-score.

One warehouse holds: the bundled plan sample as CSV and as xlsx; an xlsx of the new layout
with per-metric scores; an xlsx with formula, error and out-of-header cells, a memo sheet in
front and the Excel-cut Raw JSON; and a CSV of hostile values under a hostile file name.
"""

from __future__ import annotations

import json
import math

import pytest
from agent_scoring.cli import main
from agent_scoring.markdown import code, one_line
from agent_scoring.reports import render_report
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from support.markdown import parse, table_with_header
from support.warehouse import SAMPLES, all_rows, build, one
from support.xlsx import read_csv, write_xlsx

PLAN = SAMPLES / "plan_agent_sample.csv"
HEADER, ROWS = read_csv(PLAN)
COLUMN = {name: i for i, name in enumerate(HEADER)}
NEW_LAYOUT = [
    "Run ID", "Item ID", "Ordinal", "Query ID", "질의", "기대결과", "카테고리", "방/반복",
    "실행시각", "응답", "오류", "LLM 상태", "LLM 모델", "의도충족 점수", "정확성 점수",
    "일관성 점수", "속도(SINGLE) 점수", "속도(MULTI) 점수", "안정성 점수", "LLM 평가 코멘트",
    "Raw JSON",
]
HOSTILE_NAME = "plan_agent_`x` | y.csv"
SCORE_COLUMNS = (
    "record_no", "item_id", "query_id", "round_label", "status", "check_count", "check_passed",
    "heuristic_score", "llm_score", "score_source", "intent_score", "accuracy_score",
    "stability_score", "response_time_sec", "speed_points",
)
# (row of the sample, LLM 상태, 의도충족, 정확성, 일관성, 속도(SINGLE), 안정성)
METRICS = [
    (0, "DONE", 4, 3, 4, 2, 5),  # every metric from the LLM
    (2, "DONE_WITH_LLM_ERROR", None, None, None, None, None),  # the rules
    (3, "FAILED: judge timeout", 5, 5, 5, 5, 5),  # failed: its scores are not used
    (4, None, None, None, None, None, None),  # not evaluated
    (5, "DONE", None, 1, None, None, None),  # accuracy only
    (8, "EVALUATED_BY_HAND", 2, None, None, None, None),  # unknown: used, listed
    (10, "DONE", 7, -1, None, 9, None),  # out of range: not used
    (7, "DONE_WITH_EXEC_ERROR", 3, 3, 3, 3, 3),  # an error row: the gate wins
    (13, "SKIPPED_NO_KEY", 4, None, None, None, None),  # not evaluated, yet a score: used
]


def new_layout_rows() -> list[list[object]]:
    rows = []
    for index, status, intent, accuracy, consistency, speed, stability in METRICS:
        source = dict(zip(HEADER, ROWS[index], strict=True))
        values = {**source, "LLM 상태": status or "", "LLM 모델": "HCX-007" if status else "",
                  "의도충족 점수": intent, "정확성 점수": accuracy, "일관성 점수": consistency,
                  "속도(SINGLE) 점수": speed, "속도(MULTI) 점수": None, "안정성 점수": stability,
                  "LLM 평가 코멘트": "의도에 맞음" if status else ""}
        rows.append([values.get(name) if values.get(name) != "" else None for name in NEW_LAYOUT])
    return rows


def with_seconds(raw: str, seconds: object) -> str:
    payload = json.loads(raw)
    payload["responseTimeSec"] = seconds
    return json.dumps(payload, ensure_ascii=False)


# (sample row, responseTimeSec, 방/반복) of the hostile file; its problem when it has one
HOSTILE_TIMES = [
    (0, math.nan, "01/1", "not_finite"),
    (1, math.inf, "1\u00a0/\u00a01", "not_finite"),
    (2, -1.5, "１/１", "negative"),
    (3, 1e300, " 1/1 ", "too_large"),
    (4, "fast", "1/1", "not_a_number"),
    (5, "12,5", "1/1", "comma_decimal"),
    (6, "7.25", "001/01", None),
    (20, 9.0, "2/1", None),
]


def hostile_rows() -> list[list[str]]:
    rows = []
    for index, seconds, label, _ in HOSTILE_TIMES:
        row = list(ROWS[index])
        row[COLUMN["Raw JSON"]] = with_seconds(row[COLUMN["Raw JSON"]], seconds)
        row[COLUMN["방/반복"]] = label
        rows.append(row)
    rows[0][COLUMN["질의"]] = "NUL\x00 and bell\x07 and ESC\x1b[31m in a query"
    rows[1][COLUMN["LLM 상태"]], rows[1][COLUMN["LLM 점수"]] = "FAILED: judge timeout", "5"
    return rows


def write_csv_rows(path, header, rows) -> None:
    import csv

    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle, lineterminator="\r\n").writerows([header, *rows])


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    work = tmp_path_factory.mktemp("platform_exports")
    inputs = work / "input"
    inputs.mkdir()
    (inputs / PLAN.name).write_bytes(PLAN.read_bytes())
    write_xlsx(inputs / "plan_agent_sample_xlsx.xlsx", HEADER, ROWS)
    write_xlsx(inputs / "plan_agent_metrics.xlsx", NEW_LAYOUT, new_layout_rows())
    cells = [list(r) for r in ROWS[28:32]]  # the 3rd is record 31: Raw JSON cut at 32,767
    cells[0][COLUMN["LLM 점수"]] = "=1+2"
    cells[1][COLUMN["LLM 점수"]] = "#DIV/0!"
    cells[2].append("메모: 재실행 필요")
    write_xlsx(inputs / "plan_agent_cells.xlsx", HEADER, cells, sheet="결과",
               before=["메모"])
    write_csv_rows(inputs / HOSTILE_NAME, HEADER, hostile_rows())
    return build(inputs, work, select=["+item_scores", "+input_files", "+set_scores",
                                        "+round_scores", "+consistency", "+query_consistency",
                                        "speed_bands", "path:models/marts/agents.sql",
                                        "+check_results", "+path:models/marts/reporting"])


@pytest.fixture()
def con(warehouse):
    with warehouse.connect() as connection:
        yield connection


def scores(con, source_file: str) -> list[tuple]:
    return con.execute(
        f"select {', '.join(SCORE_COLUMNS)} from item_scores where source_file = ? "
        "order by record_no", [source_file]).fetchall()


def test_an_xlsx_written_from_the_sample_scores_exactly_as_its_csv(con):
    assert scores(con, "plan_agent_sample_xlsx.xlsx") == scores(con, PLAN.name)
    for mart in ("round_scores", "set_scores", "consistency"):
        def figures(source_file, mart=mart):
            return con.execute(
                f"select * exclude (source_file) from {mart} where source_file = ? order by all",
                [source_file]).fetchall()
        assert figures("plan_agent_sample_xlsx.xlsx") == figures(PLAN.name), mart


def test_xlsx_rows_reconcile_like_a_csv(con):
    files = {r["source_file"]: r for r in all_rows(
        con, "select source_file, read_from, sheet_name, rows_read, rows_scored, rows_rejected, "
        "rows_unaccounted from input_files where source_file like '%.xlsx'")}
    assert files["plan_agent_sample_xlsx.xlsx"]["rows_read"] == 40
    for f in files.values():
        assert f["read_from"] == "xlsx" and f["rows_unaccounted"] == 0


def test_the_sheet_is_found_by_name_else_by_its_header(con):
    sheets = dict(con.execute("select source_file, sheet_name from input_files "
                              "where source_file like '%.xlsx'").fetchall())
    assert sheets["plan_agent_sample_xlsx.xlsx"] == "validation_history"
    assert sheets["plan_agent_cells.xlsx"] == "결과"  # the memo sheet in front has no header


def test_formula_error_and_outside_cells_are_missing_and_noted(con):
    notes = one(con, "select cell_notes from input_files where source_file = ?",
                ["plan_agent_cells.xlsx"])["cell_notes"]
    llm_score = f"{chr(65 + COLUMN['LLM 점수'])}"
    beyond = f"{chr(65 + len(HEADER))}"
    assert notes == [
        {"cell": f"{llm_score}2", "header_name": "LLM 점수", "kind": "formula"},
        {"cell": f"{llm_score}3", "header_name": "LLM 점수", "kind": "error"},
        {"cell": f"{beyond}4", "header_name": "", "kind": "outside_header"},
    ]
    first = one(con, "select llm_score, score_source from item_scores "
                "where source_file = ? and record_no = 1", ["plan_agent_cells.xlsx"])
    assert first["llm_score"] is None  # =1+2 is no exported score
    text = render_report(con, "plan_agent", "plan_agent_cells.xlsx")
    assert f"- 빈 값으로 읽은 셀 3개 (수식·오류 값·헤더 밖 값은 내보낸 값이 아님): {llm_score}2 " \
           f"(LLM 점수, 수식), {llm_score}3 (LLM 점수, 오류 값), {beyond}4 (헤더 밖)" in text
    assert "(시트 `결과`를 CSV로 옮겨 읽음)" in text


def test_a_raw_json_of_exactly_32767_characters_is_reported_as_cut_by_excel(con):
    cut = one(con, "select status, error_message from item_scores "
              "where source_file = ? and record_no = 3", ["plan_agent_cells.xlsx"])
    assert cut == {"status": "error", "error_message":
                   "Raw JSON truncated by Excel at its 32,767-character cell limit"}


def metric_row(con, index: int) -> dict:
    item_id = ROWS[index][COLUMN["Item ID"]]
    return one(con, "select * from item_scores where source_file = ? and item_id = ?",
               ["plan_agent_metrics.xlsx", item_id])


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        (0, {"score_source": "llm", "intent_score": 4, "accuracy_source": "llm",
             "accuracy_score": 3, "stability_source": "llm", "stability_score": 5,
             "speed_source": "llm", "speed_points": 2, "llm_consistency_score": 4,
             "llm_status_class": "usable"}),
        (2, {"score_source": "heuristic", "accuracy_source": "heuristic",
             "stability_source": "heuristic", "speed_source": "heuristic",
             "llm_status_class": "failed"}),
        (3, {"score_source": "heuristic", "accuracy_source": "heuristic",
             "speed_source": "heuristic", "llm_intent_score": None,
             "llm_status_class": "failed"}),
        (4, {"score_source": "heuristic", "llm_status_class": "not_evaluated"}),
        (5, {"score_source": "heuristic", "accuracy_source": "llm", "accuracy_score": 1}),
        (8, {"score_source": "llm", "intent_score": 2, "llm_status_class": "unknown"}),
        (10, {"score_source": "heuristic", "accuracy_source": "heuristic",
              "speed_source": "heuristic", "llm_intent_score": None}),
        (7, {"status": "error", "score_source": "gate", "intent_score": 0,
             "accuracy_source": "gate", "stability_source": "gate", "stability_score": 0,
             "speed_source": "llm", "speed_points": 3}),
        (13, {"score_source": "llm", "intent_score": 4, "llm_status_class": "not_evaluated"}),
    ],
)
def test_each_usable_metric_score_replaces_the_rule_for_that_metric(con, index, expected):
    row = metric_row(con, index)
    assert {k: row[k] for k in expected} == expected


def test_unknown_llm_statuses_are_listed_in_the_data_quality_section(con):
    text = render_report(con, "plan_agent", "plan_agent_metrics.xlsx")
    assert ("- `seeds/llm_statuses.csv`에 없는 LLM 상태 (실패가 아니므로 점수는 사용): "
            "`EVALUATED_BY_HAND` 1건") in text


def test_a_failed_llm_status_with_text_after_it_drops_the_score(con):
    row = one(con, "select score_source, llm_status_class from item_scores "
              "where source_file = ? and record_no = 2", [HOSTILE_NAME])
    assert row == {"score_source": "heuristic", "llm_status_class": "failed"}


@pytest.mark.parametrize(("position", "problem"),
                         [(i, p) for i, (_, _, _, p) in enumerate(HOSTILE_TIMES)])
def test_hostile_response_times_give_no_speed_score_and_say_why(con, position, problem):
    row = one(con, "select response_time_sec, response_time_problem, speed_points "
              "from item_scores where source_file = ? and record_no = ?",
              [HOSTILE_NAME, position + 1])
    assert row["response_time_problem"] == problem
    assert (row["response_time_sec"] is None) == (problem is not None)


def test_round_labels_are_compared_by_their_numbers(con):
    rounds = con.execute("select round_label, item_count from round_scores "
                         "where source_file = ? and track = 'all' order by round_label",
                         [HOSTILE_NAME]).fetchall()
    assert rounds == [("1/1", 7), ("2/1", 1)]


def test_the_hostile_file_reports_without_crash_its_name_literal_and_no_control_chars(con):
    text = render_report(con, "plan_agent", HOSTILE_NAME)
    assert "\x00" not in text and "\x07" not in text and "\x1b" not in text
    spans = [child.content for token in parse(text) if token.type == "inline"
             for child in token.children or [] if child.type == "code_inline"]
    assert HOSTILE_NAME in spans
    assert ("- 속도 점수 없이 센 응답 시간 (responseTimeSec): NaN·무한대 2건, "
            "쉼표 소수점(\"12,5\") 1건, 음수 1건, 숫자 아님 1건, 상한 초과 1건") in text
    headline = table_with_header(text, "구분", "문항 수")
    assert [row[0] for row in headline[1:]] == ["1/1", "2/1", "세트"]


def test_score_report_writes_the_hostile_files_report(warehouse, tmp_path):
    result = CliRunner().invoke(main, ["--db", str(warehouse.db), "--agent", "plan_agent",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "plan_agent_`x` | y_score_summary.md").exists()


def test_one_bad_file_never_stops_the_others_and_the_exit_is_1(warehouse, tmp_path, monkeypatch):
    import agent_scoring.cli as cli

    real_render = cli.render

    def render(template, context):
        if context["source_file"] == "plan_agent_metrics.xlsx":
            raise ValueError("simulated failure\nsecond line")
        return real_render(template, context)

    monkeypatch.setattr(cli, "render", render)
    result = CliRunner().invoke(main, ["--db", str(warehouse.db), "--agent", "plan_agent",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 1
    written = sorted(p.name for p in tmp_path.glob("*.md"))
    assert "plan_agent_metrics_score_summary.md" not in written
    assert len(written) == 4
    assert ("plan_agent_metrics.xlsx: report failed (ValueError: simulated failure)"
            in result.output)
    assert result.output.strip().splitlines()[-1] == (
        "Error: 1 report(s) failed: plan_agent_metrics.xlsx; the others were written")


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1))
def test_a_code_span_shows_any_text_literally(value):
    """What a reader sees in the span is the value on one line, control characters removed
    (one_line), whatever backticks, pipes, HTML or markdown it holds."""
    shown = [child.content for token in parse(f"- 데이터: {code(value)}\n")
             if token.type == "inline" for child in token.children or []
             if child.type == "code_inline"]
    if one_line(value):
        assert shown == [one_line(value)]
