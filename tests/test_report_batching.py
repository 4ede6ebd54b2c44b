"""Reports query once for all files: each file still gets its own top-N, in the same order."""

from __future__ import annotations

import duckdb
import pytest
from agent_scoring.reports import Reporter, common

FILES = ["a.csv", "b.csv"]


@pytest.fixture()
def con():
    with duckdb.connect() as c:
        c.execute("create table item_scores (agent varchar, source_file varchar, status varchar, "
                  "round_label varchar, query_id varchar, error_message varchar)")
        c.execute("create table check_results (agent varchar, source_file varchar, "
                  "item_status varchar, check_kind varchar, expected_value varchar, "
                  "passed boolean)")
        # a.csv: 12 message shapes failing 1..12 times, the top one also as many times empty;
        # b.csv: one shape only. Checks: 13 values of a.csv failing twice each (all tied).
        for k, letter in enumerate("abcdefghijkl", start=1):
            for _ in range(k):
                c.execute("insert into item_scores values ('plan_agent', 'a.csv', 'error', "
                          "'1/1', 'Q-1', ?)", [f"fail {letter} 42"])
        for _ in range(12):
            c.execute("insert into item_scores values ('plan_agent', 'a.csv', 'empty', '1/1', "
                      "'Q-1', 'fail l 7')")
        c.execute("insert into item_scores values ('plan_agent', 'b.csv', 'empty', '1/1', "
                  "'Q-2', null)")
        for value in [*"lkjihgfedcba", None]:
            for _ in range(2):
                c.execute("insert into check_results values ('plan_agent', 'a.csv', 'ok', "
                          "'menu', ?, false)", [value])
        c.execute("insert into check_results values ('plan_agent', 'b.csv', 'ok', 'menu', "
                  "'z', false)")
        yield c


def test_failure_patterns_keep_each_files_top_n(con):
    batched = common.failure_patterns(con, "plan_agent", FILES)
    assert [(p["pattern"], p["status"], p["n"]) for p in batched["a.csv"]][:3] == [
        ("fail l N", "empty", 12), ("fail l N", "error", 12), ("fail k N", "error", 11)]
    assert [p["n"] for p in batched["a.csv"]] == [12, 12, 11, 10, 9, 8, 7, 6, 5, 4]
    assert [p["status"] for p in batched["b.csv"]] == ["empty"]
    for f in FILES:
        assert common.failure_patterns(con, "plan_agent", [f])[f] == batched[f]


def test_most_failed_checks_break_ties_by_value_nulls_last(con):
    batched = common.most_failed_checks(con, "plan_agent", FILES)
    assert [c["expected_value"] for c in batched["a.csv"]] == list("abcdefghij")
    assert [c["expected_value"] for c in common.most_failed_checks(con, "plan_agent", FILES, 13)[
        "a.csv"]][-1] is None
    assert [c["expected_value"] for c in batched["b.csv"]] == ["z"]
    for f in FILES:
        assert common.most_failed_checks(con, "plan_agent", [f])[f] == batched[f]


def test_a_reporter_without_batch_context_builds_each_file_alone():
    seen = []
    reporter = Reporter(
        agent="x", template="t", required_tables=(), sources=lambda con: [],
        context=lambda con, f: seen.append(f) or {"source_file": f}, summary=str,
    )
    assert reporter.contexts(None, FILES) == [{"source_file": f} for f in FILES]
    assert seen == FILES
    assert reporter.contexts(None, []) == []
