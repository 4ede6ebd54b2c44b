"""The bundled plan sample: every rule of SCORING §2 on rows written to exercise it."""

from __future__ import annotations

import csv

import pytest
from support.warehouse import SAMPLES, all_rows, one

FILE = "plan_agent_sample.csv"


def item(con, query_prefix: str, round_label: str) -> dict:
    return one(
        con,
        "select * from item_scores where source_file = ? and query_id like ? and round_label = ?",
        [FILE, query_prefix + "%", round_label],
    )


def checks(con, query_prefix: str, round_label: str) -> list[dict]:
    return all_rows(
        con,
        """
        select c.check_no, c.check_kind, c.expected_value, c.passed
        from check_results as c
        inner join item_scores as i using (agent, source_file, record_no)
        where c.source_file = ? and i.query_id like ? and i.round_label = ?
        order by c.check_no
        """,
        [FILE, query_prefix + "%", round_label],
    )


def test_every_csv_row_is_in_item_scores():
    path = SAMPLES / FILE
    with path.open(encoding="utf-8-sig", newline="") as handle:
        data_rows = sum(1 for _ in csv.DictReader(handle))
    assert data_rows == 40


def test_item_scores_has_one_row_per_csv_row(con):
    assert one(con, "select count(*) as n from item_scores where source_file = ?",
               [FILE])["n"] == 40


def test_llm_score_present_is_used_and_recorded_as_llm(con):
    r = item(con, "5fb53699", "1/1")
    assert (r["score_source"], r["llm_score"], r["intent_score"]) == ("llm", 4.0, 4.0)
    assert r["heuristic_score"] == 3  # stored beside it, not used


def test_llm_score_absent_uses_the_heuristic(con):
    r = item(con, "22e59eb4", "2/1")
    assert (r["score_source"], r["llm_score"], r["intent_score"]) == ("heuristic", None, 3.0)


def test_llm_status_error_falls_back_to_the_heuristic(con):
    r = item(con, "d8ef4e13", "2/1")
    assert r["score_source"] == "heuristic"


@pytest.mark.parametrize(
    ("query", "round_label", "status", "message"),
    [
        ("dbf139ae", "1/1", "error", "timeout(120000ms)"),
        ("33e8ac66", "2/1", "error", "HTTP 500: Internal Server Error (recruit-plan-api)"),
        ("78043af7", "2/1", "error", "Raw JSON unparsable (truncated at 32,767 chars?)"),
        ("93618303", "1/1", "error", "TypeError: Cannot read properties of undefined "
         "(reading 'nodeDataSet')"),
        ("968b4b3e", "1/1", "empty", None),
    ],
)
def test_failures_score_0_through_the_gate(con, query, round_label, status, message):
    r = item(con, query, round_label)
    assert (r["status"], r["error_message"]) == (status, message)
    assert (r["score_source"], r["intent_score"], r["stability_score"]) == ("gate", 0.0, 0)


def test_error_column_text_makes_an_error_even_with_a_good_payload(con):
    r = item(con, "c84b16e9", "1/1")
    assert r["status"] == "error" and r["intent_score"] == 0
    assert r["heuristic_score"] == 4  # what the payload would have earned


def test_expected_result_without_checks_is_flagged_not_scored(con):
    r = item(con, "4d5f87c5", "1/1")
    assert (r["status"], r["check_count"], r["intent_score"], r["score_source"]) == (
        "no_checks", 0, None, "none")
    q = one(con, "select * from query_consistency where source_file = ? and query_id like ?",
            [FILE, "4d5f87c5%"])
    assert q["verdict"] == "not_eligible"


def test_machine_check_form_is_parsed(con):
    assert [(c["check_kind"], c["expected_value"]) for c in checks(con, "fe6894c8", "1/1")] == [
        ("formType", "SELECT"),
        ("multiSelectAllowYn", "true"),
        ("assistantMessage", "채용사이트"),
    ]


def test_numbered_korean_lines_become_checks_and_the_header_line_does_not(con):
    found = checks(con, "22e59eb4", "1/1")
    assert [c["check_kind"] for c in found] == ["assistantMessage", "formType",
                                                "multiSelectAllowYn"]


def test_curly_quotes_are_accepted(con):
    assert "합격자 결정 기준" in [c["expected_value"] for c in checks(con, "93618303", "2/1")]


def test_keyword_matches_ignoring_whitespace(con):
    found = checks(con, "2ce8d543", "1/1")
    assert [c["passed"] for c in found if c["check_kind"] == "assistantMessage"] == [True]


def test_ui_value_sent_as_json_string_is_evaluated(con):
    r = item(con, "1e69bd02", "2/1")
    assert (r["check_passed"], r["check_count"]) == (3, 3)


def test_ui_checks_use_the_one_best_item(con):
    # two entries: the ACTION entry passes all four checks
    r = item(con, "218d4098", "2/1")
    assert (r["check_passed"], r["check_count"], r["intent_score"]) == (4, 4, 5.0)


def test_nested_data_key_is_not_read_by_default(con):
    found = checks(con, "33e8ac66", "1/1")
    assert [c["passed"] for c in found if c["check_kind"] == "dataKey"] == [False]


def test_response_time_as_numeric_string_is_read(con):
    assert item(con, "9f291254", "1/1")["response_time_sec"] == 12.5


def test_speed_bands_include_their_upper_bound(con):
    assert item(con, "fe6894c8", "1/1")["speed_points"] == 5  # exactly 5.0 s
    assert item(con, "5fb53699", "2/1")["speed_points"] == 4  # exactly 8.0 s
    assert item(con, "928f1ae1", "2/1")["speed_points"] == 1  # exactly 20.0 s
    assert item(con, "bc5ce010", "1/1")["speed_points"] == 0  # 26.8 s


def test_failed_rounds_have_no_time_and_are_counted_not_guessed(con):
    r = one(con, "select * from round_scores where source_file = ? and round_label = '1/1' "
            "and track = 'all'", [FILE])
    assert r["item_count"] == 20
    assert r["timed_count"] == 18  # the timeout and the TypeError carry no responseTimeSec


def test_consistency_of_the_sample(con):
    c = one(con, "select * from consistency where source_file = ? and track = 'all'", [FILE])
    assert (c["all_pass"], c["all_fail"], c["mismatch"], c["not_eligible"]) == (11, 3, 5, 1)
    assert c["consistency_score"] == pytest.approx(5 * 14 / 19)
