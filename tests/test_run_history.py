"""Run history (issue 14): runs of one test set paired with the run before, every item's
change, trends, the compare report and the CI gate - on runs derived from the plan sample
(support/history.py): A, B (some items broken, some fixed, slower), C (queries added and
removed) and D (another test set, run before the others)."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest
from agent_scoring.cli import main
from click.testing import CliRunner
from support.history import FILES, write_runs
from support.markdown import parse, table_with_header, tables_by_heading
from support.warehouse import REPO, WITHOUT_DATA_TESTS, all_rows, dbt_env, one, run_dbt

A, B, C, D = (FILES[k] for k in "ABCD")
GOLDEN_COMPARE = REPO / "tests" / "golden" / "plan_agent_run_b_compare.md"


def build(env, *extra: str) -> str:
    proc = run_dbt(["build", "--exclude", "tag:rag", *extra], env)
    assert proc.returncode == 0, proc.stdout[-5000:]
    return proc.stdout


def query(db, sql: str, params=None) -> list[dict]:
    with duckdb.connect(str(db), read_only=True) as con:
        return all_rows(con, sql, params)


def compared_at(db) -> dict[tuple, object]:
    found = query(db, "select head_file, base_file, max(compared_at) as at from item_changes "
                      "group by all")
    return {(r["head_file"], r["base_file"]): r["at"] for r in found}


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A, B and D built; then C added; then a build with nothing new."""
    work = tmp_path_factory.mktemp("history")
    staged = work / "staged"
    staged.mkdir()
    runs = write_runs(staged)
    inputs = work / "input"
    inputs.mkdir()
    for key in "ABD":
        shutil.copy(runs[key], inputs / runs[key].name)
    db = work / "warehouse.duckdb"
    env = dbt_env(inputs, db, work)
    steps = {}
    # the data tests run on the last build, which has every run
    build(env, *WITHOUT_DATA_TESTS)
    steps["before_c"] = compared_at(db)
    shutil.copy(runs["C"], inputs / runs["C"].name)
    build(env, *WITHOUT_DATA_TESTS)
    steps["with_c"] = compared_at(db)
    steps["no_change_log"] = build(env)
    steps["no_change"] = compared_at(db)
    return db, env, work, steps


@pytest.fixture()
def db(history):
    return history[0]


def test_each_run_is_paired_with_the_run_before_of_its_test_set(db):
    runs = {r["source_file"]: r for r in query(db, "select * from runs")}
    assert runs[A]["previous_source_file"] is None
    assert (runs[B]["previous_source_file"], runs[B]["pairing"]) == (A, "auto")
    assert (runs[C]["previous_source_file"], runs[C]["pair_key"]) == (B, "query_id")
    assert runs[C]["shared_query_share"] == pytest.approx(0.9)
    assert {runs[k]["test_set_key"] for k in (A, B, C)} == {runs[A]["query_set_hash"]}


def test_a_run_of_another_test_set_is_never_paired(db):
    runs = {r["source_file"]: r for r in query(db, "select * from runs")}
    assert runs[D]["previous_source_file"] is None
    assert runs[D]["test_set_key"] != runs[A]["test_set_key"]
    assert runs[D]["run_order"] == 1  # it ran first, and A did not take it as its previous
    assert query(db, "select count(*) as n from item_changes where ? in (head_file, base_file)",
                 [D]) == [{"n": 0}]


def changes(db, head: str) -> dict[tuple[str, str], str]:
    found = query(db, "select query_id, round_label, change from item_changes "
                      "where head_file = ?", [head])
    return {(r["query_id"][:8], r["round_label"]): r["change"] for r in found}


def test_every_item_of_b_has_its_change_label(db):
    found = changes(db, B)
    assert len(found) == 40
    assert {k: v for k, v in found.items() if v != "unchanged"} == {
        ("22e59eb4", "1/1"): "regressed",  # an 오류 in B
        ("fe6894c8", "1/1"): "regressed",  # an empty reply in B
        ("fe6894c8", "2/1"): "score_down",  # a wrong formType: 5 → 3, still passing
        ("dbf139ae", "1/1"): "improved",  # the timeout answered in B
        ("93618303", "1/1"): "score_up",  # the TypeError answered, 0 → 2: still failing
    }


def test_c_has_new_and_removed_queries(db):
    found = changes(db, C)
    assert sorted(k for k, v in found.items() if v == "removed") == [
        ("928f1ae1", "1/1"), ("928f1ae1", "2/1"), ("9f291254", "1/1"), ("9f291254", "2/1")]
    assert sum(v == "new" for v in found.values()) == 4
    assert sum(v == "unchanged" for v in found.values()) == 36


def test_flipped_checks_and_failure_reasons_are_on_the_items(db):
    down = one(db_connection(db), "select * from item_changes where head_file = ? "
               "and query_id like 'fe6894c8%' and round_label = '2/1'", [B])
    assert (down["base_score"], down["head_score"]) == (5.0, 3.0)
    assert down["checks_failing_now"] == ["formType=SELECT"]
    fixed = one(db_connection(db), "select * from item_changes where head_file = ? "
                "and query_id like 'dbf139ae%' and round_label = '1/1'", [B])
    assert fixed["base_error_message"] == "timeout(120000ms)"
    assert "formType=ACTION" in fixed["checks_passing_now"]


def db_connection(db):
    return duckdb.connect(str(db), read_only=True)


def test_trends_carry_deltas_against_the_previous_run(db):
    trends = {r["source_file"]: r for r in query(db, "select * from run_trends")}
    runs = {r["source_file"]: r for r in query(db, "select * from runs")}
    assert [trends[f]["run_seq"] for f in (A, B, C)] == [1, 2, 3]
    assert trends[D]["run_seq"] == 1
    assert trends[A]["intent_score_delta"] is None
    assert trends[B]["intent_score_delta"] == pytest.approx(
        runs[B]["intent_score"] - runs[A]["intent_score"])
    # round 2 of B answered three times slower
    assert trends[B]["p90_single_sec"] > trends[A]["p90_single_sec"]
    assert trends[B]["p90_single_sec_delta"] == pytest.approx(
        trends[B]["p90_single_sec"] - trends[A]["p90_single_sec"])


def test_adding_a_run_compares_only_the_pairs_it_is_in(history):
    *_, steps = history
    assert steps["before_c"].keys() == {(B, A)}
    assert steps["with_c"][(B, A)] == steps["before_c"][(B, A)]
    assert (C, B) in steps["with_c"]


def test_a_build_with_nothing_new_compares_nothing(history):
    *_, steps = history
    assert steps["no_change"] == steps["with_c"]


def run_cli(*args: str):
    return CliRunner().invoke(main, list(args))


def test_compare_by_default_takes_the_latest_run_against_its_previous(db, tmp_path):
    result = run_cli("compare", "--db", str(db), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["plan_agent_run_c_compare.md"]
    assert result.output.strip() == (
        f"{tmp_path / 'plan_agent_run_c_compare.md'}: vs {B}: 0 regressed, 0 improved, "
        "4 new, 4 removed")


def test_the_compare_report_has_its_sections_regressions_first(db):
    result = run_cli("compare", "--db", str(db), "--head", B, "--stdout")
    assert result.exit_code == 0, result.output
    text = result.output
    headings = [t.content for i, t in enumerate(parse(text)) if i and
                parse(text)[i - 1].type == "heading_open"]
    assert headings[:10] == [
        "실행 에이전트 실행 비교 리포트", "지표 비교", "변화는 유의한가 (95%)",
        "회귀 (통과 → 실패)", "개선 (실패 → 통과)",
        "점수 하락 (같은 판정, 1점 이상)", "점수 상승 (같은 판정, 1점 이상)",
        "새 질의 (이번 실행에만 있음)", "빠진 질의 (이전 실행에만 있음)", "응답 시간 변화"]
    by_heading = tables_by_heading(text)
    regressed = by_heading["회귀 (통과 → 실패)"]
    assert [row[3] for row in regressed[1:]] == ["ok 5.0 → error 0.0", "ok 5.0 → empty 0.0"]
    assert regressed[1][4] == "HTTP 503: upstream busy"
    headline = table_with_header(text, "지표")
    assert headline[1][:4] == ["의도 충족", "3.34", "3.21", "-0.13"]
    latency = table_with_header(text, "루브릭")
    assert latency[1][0] == "단일" and latency[1][5].startswith("+")
    assert "가장 느려진 항목" in text
    assert text.count("```mermaid\nxychart-beta") == 3
    assert text == GOLDEN_COMPARE.read_text(encoding="utf-8")
    assert 'x-axis ["1. plan_agent_run_a", "2. plan_agent_run_b"]' in text


def test_run_comparisons_pair_the_items_item_changes_pairs(db):
    found = {(r["head_file"], r["metric"]): r for r in query(db, "select * from run_comparisons")}
    intent = found[(B, "intent")]
    # 2 regressed and 1 improved, as item_changes says; the mean change of the 38 scored pairs
    assert (intent["regressed"], intent["improved"], intent["paired_count"]) == (2, 1, 38)
    assert intent["delta"] == pytest.approx(intent["head_value"] - intent["base_value"])
    assert intent["delta_ci_low"] < intent["delta"] < intent["delta_ci_high"]
    # exact McNemar: 2 against 1 of 3 flips, p = 2 × P(X <= 1 | n = 3) = 1
    assert intent["mcnemar_p"] == 1.0
    speed = found[(B, "speed")]
    # round 2 three times slower: 9 items fell below the line, none rose; p = 2 / 2^9
    assert (speed["regressed"], speed["improved"]) == (9, 0)
    assert speed["mcnemar_p"] == pytest.approx(2 / 2 ** 9)
    assert speed["delta_ci_high"] < 0
    # C repeats B's answers: no change, and an interval of nothing but 0
    unchanged = found[(C, "intent")]
    assert (unchanged["delta"], unchanged["delta_ci_low"], unchanged["delta_ci_high"]) == (0, 0, 0)
    assert {r["metric"] for r in found.values()} == {
        "intent", "accuracy", "stability", "speed", "total", "consistency", "pass_any_round",
        "pass_all_rounds"}


def test_the_compare_report_says_which_changes_are_significant(db):
    result = run_cli("compare", "--db", str(db), "--head", B, "--stdout")
    table = {row[0]: row for row in tables_by_heading(result.output)["변화는 유의한가 (95%)"]}
    assert table["의도 충족"][4:] == ["-0.13 (-0.67–0.40)", "2", "1", "p = 1.00", "유의하지 않음"]
    assert table["속도 점수(문항 평균)"][-2:] == ["p = 0.004", "유의한 하락"]
    assert table["pass^k"][4] == "-5.3%p (-23.5%p–12.9%p)"


def test_compare_any_two_runs_with_base_and_head(db):
    result = run_cli("compare", "--db", str(db), "--base", A, "--head", C, "--stdout")
    assert result.exit_code == 0, result.output
    assert "- 항목 변화: 회귀 2건, 개선 1건" in result.output


def test_compare_names_an_unknown_run(db):
    result = run_cli("compare", "--db", str(db), "--head", "nope.csv")
    assert result.exit_code == 1  # not found, as a --file not found
    assert "no run 'nope.csv' in the warehouse" in result.output


def test_the_per_file_report_says_what_changed_since_the_previous_run(db):
    result = run_cli("--db", str(db), "--agent", "plan_agent", "--file", B, "--stdout")
    assert "## 이전 실행 대비" in result.output
    assert "- 회귀 2건, 개선 1건: `score-report compare --head plan_agent_run_b.csv`" \
           in result.output
    assert ("  - 의도 충족 -0.13 (95% CI -0.67–0.40), 유의하지 않음; 회귀 2 · 개선 1, p = 1.00"
            in result.output)
    assert "  - 속도 점수(문항 평균) -1.22 (95% CI -1.47–-0.97), 유의한 하락" in result.output
    first = run_cli("--db", str(db), "--agent", "plan_agent", "--file", A, "--stdout")
    assert "이전 실행 대비" not in first.output


def test_the_gate_passes_with_exit_0(db):
    result = run_cli("check", "--db", str(db), "--min-intent", "3", "--max-regressions", "0")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "PASS: 0 of 2 rules failed"


def test_the_gate_prints_thresholds_as_written(db):
    result = run_cli("check", "--db", str(db), "--min-intent", "2.5",
                     "--max-regressions", "1000000")
    assert ">= 2.5" in result.output and "<= 1000000" in result.output, result.output


def test_the_gate_fails_with_exit_1_and_lists_every_rule(db, tmp_path):
    thresholds = tmp_path / "gate.yml"
    thresholds.write_text("min_intent: 3.0\nmax_regressions: 0\n"
                          "agents:\n  plan_agent: {min_accuracy: 3.5}\n", encoding="utf-8")
    result = run_cli("check", "--db", str(db), "--head", B, "--thresholds", str(thresholds),
                     "--max-p90-latency-increase", "10", "--format", "json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    statuses = {r["rule"]: r["status"] for r in report["rules"]}
    assert statuses == {"min_intent": "pass", "min_accuracy": "fail",
                        "max_regressions": "fail", "max_p90_latency_increase": "fail"}
    assert report["result"] == "fail"


def test_the_gate_at_alpha_fails_only_on_a_significant_drop(db):
    # B: one flaky item more than it fixed (not significant), a real slowdown (significant)
    result = run_cli("check", "--db", str(db), "--head", B, "--alpha", "0.05")
    assert result.exit_code == 1, result.output
    failed = [line for line in result.output.splitlines() if line.startswith("FAIL  ")]
    assert len(failed) == 1 and "alpha: speed -1.222" in failed[0], result.output
    assert "significant drop at 0.05/8" in failed[0]
    # max-regressions 0 fails the same run on 2 items: the threshold works as before
    strict = run_cli("check", "--db", str(db), "--head", B, "--max-regressions", "0")
    assert strict.exit_code == 1
    # C: nothing changed, nothing fails
    assert run_cli("check", "--db", str(db), "--head", C, "--alpha", "0.05").exit_code == 0


def test_the_gate_json_carries_intervals_and_p_values(db):
    result = run_cli("check", "--db", str(db), "--head", B, "--alpha", "0.05",
                     "--format", "json")
    rules = {r["test"]["metric"]: r for r in json.loads(result.output)["rules"]}
    intent = rules["intent"]["test"]
    assert intent["level"] == pytest.approx(0.05 / 8)
    assert intent["ci95_low"] < intent["delta"] < intent["ci95_high"]
    assert intent["ci_low"] < intent["ci95_low"]  # the interval at 1 - 0.05/8 is wider
    assert (intent["regressed"], intent["improved"], intent["mcnemar_p"]) == (2, 1, 1.0)
    assert 0 < intent["paired_p"] < 1
    assert rules["speed"]["status"] == "fail" and rules["speed"]["test"]["verdict"] == "worse"


@pytest.mark.parametrize("alpha", ["0", "1", "-0.1"])
def test_the_gate_refuses_an_alpha_outside_0_to_1(db, alpha):
    assert run_cli("check", "--db", str(db), "--alpha", alpha).exit_code == 2


def test_the_gate_skips_rules_that_need_a_previous_run(db):
    result = run_cli("check", "--db", str(db), "--head", A, "--max-regressions", "0")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("SKIP  plan_agent  plan_agent_run_a.csv  max-regressions")


@pytest.mark.parametrize("args", [
    ["--db", "{db}"],  # no rule
    ["--min-intent", "x", "--db", "{db}"],
])
def test_the_gate_exits_2_on_usage_errors(db, args):
    result = run_cli("check", *(a.replace("{db}", str(db)) for a in args))
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize(("args", "says"), [
    (["--min-intent", "3", "--db", "/nonexistent/w.duckdb"], "database not found"),
    (["--min-intent", "3", "--head", "nope.csv", "--db", "{db}"], "no run 'nope.csv'"),
])
def test_the_gate_exits_1_when_the_warehouse_or_a_run_is_not_there(db, args, says):
    result = run_cli("check", *(a.replace("{db}", str(db)) for a in args))
    assert result.exit_code == 1, result.output
    assert says in result.output and "PASS" not in result.output


def test_the_gate_exits_2_on_a_bad_thresholds_file(db, tmp_path):
    bad = tmp_path / "gate.yml"
    bad.write_text("min_intnet: 3\n", encoding="utf-8")
    result = run_cli("check", "--db", str(db), "--thresholds", str(bad))
    assert result.exit_code == 2
    assert "unknown rule min_intnet" in result.output


@pytest.fixture(scope="module")
def overridden(history, tmp_path_factory):
    """A copy of the history where C is compared with A (a run pair given as data)."""
    db, env, *_ = history
    override = tmp_path_factory.mktemp("override") / "override.duckdb"
    shutil.copy(db, override)
    build({**env, "AGENT_SCORING_DB": str(override)}, "--vars",
          f"{{run_pairs: [{{agent: plan_agent, head: {C}, base: {A}}}]}}")
    return override


def test_pairs_can_be_overridden_by_data(overridden):
    runs = {r["source_file"]: r for r in query(overridden, "select * from runs")}
    assert (runs[C]["previous_source_file"], runs[C]["pairing"]) == (A, "override")
    assert set(changes(overridden, C).values()) >= {"regressed", "new", "removed"}
    assert query(overridden, "select count(*) as n from item_changes where head_file = ? "
                             "and base_file = ?", [C, B]) == [{"n": 0}]


def test_the_readme_history_queries_run_and_return_rows(db, overridden):
    from test_readme import sql_blocks

    regressed, latency, significant = sql_blocks(history=True)
    with db_connection(db) as con:
        assert con.sql(latency).fetchall(), latency
        # B's slower round 2: its speed points fell significantly
        assert [row[:3] for row in con.sql(significant).fetchall()] == [(B, A, "speed")]
        # C, the latest run, broke nothing that passed in B: no rows is the right answer
        assert con.sql(regressed).fetchall() == [], regressed
    with db_connection(overridden) as con:
        found = con.sql(regressed).fetchall()
    assert {(row[1], row[2]) for row in found} == {(C, A)}, regressed
    assert len(found) == sum(v == "regressed" for v in changes(overridden, C).values())
