"""The LLM score audit (issue 22): an xlsx export written from the team's real plan file,
with the platform's per-metric LLM columns set to what the rules give, except for errors
planted on purpose. score_agreement counts exactly those, and the report lists them.
Its Cohen's κ is scikit-learn's, on the samples and on the planted export."""

from __future__ import annotations

import inspect
from collections import defaultdict

import pytest
from agent_scoring.markdown import num
from agent_scoring.reports import llm_audit, render_report
from conftest import REAL_PLAN
from support.agreement import kappa
from support.markdown import table_with_header
from support.warehouse import all_rows, build
from support.xlsx import read_csv, write_xlsx

PLATFORM_FILE = "plan_agent_260224_platform.xlsx"
METRIC_HEADERS = {
    "intent": "의도충족 점수", "accuracy": "정확성 점수", "consistency": "일관성 점수",
    "speed": "속도(SINGLE) 점수", "stability": "안정성 점수",
}

needs_real_data = pytest.mark.skipif(not REAL_PLAN.exists(), reason="needs ../shared/real-data")


def rule_scores(con) -> dict[str, dict]:
    """Per Item ID of the real file: the rules' scores, and its query's consistency (5 when
    the rounds agree, 0 when not)."""
    found = all_rows(
        con,
        """
        select i.item_id, i.query_id, i.check_count, i.check_passed, i.response_time_sec,
               i.rule_intent_score as intent, i.rule_accuracy_score as accuracy,
               i.rule_speed_score as speed, i.rule_stability_score as stability,
               case q.verdict when 'mismatch' then 0 else 5 end as consistency
        from item_scores as i
        inner join query_consistency as q
            on q.source_file = i.source_file and q.query_id = i.query_id and q.track = 'all'
        where i.source_file = ?
        order by i.record_no
        """,
        [REAL_PLAN.name],
    )
    return {r["item_id"]: r for r in found}


@pytest.fixture(scope="module")
def planted(agent_warehouse, tmp_path_factory):
    """Build a warehouse of the platform export; return it with the planted errors."""
    with agent_warehouse.connect() as con:
        rules = rule_scores(con)
    items = list(rules.values())
    fast = next(r for r in items if r["speed"] >= 4)
    failing = next(r for r in items if r["check_passed"] < r["check_count"] and r["accuracy"] <= 2)
    clean = next(r for r in items if r["item_id"] not in (fast["item_id"], failing["item_id"]))
    # one point up that stays on its side of the pass line (3 → 4): the LLM's intent is the
    # score used, so crossing it would change the query's consistency too
    off_by_one = next(r for r in items if r["intent"] in (3, 4)
                      and r["item_id"] not in (fast["item_id"], failing["item_id"]))
    flaky = next(r for r in items if r["consistency"] == 0)
    errors = {
        (fast["item_id"], "speed"): 0,  # a 5-second answer scored as the slowest
        (failing["item_id"], "accuracy"): 5,  # full marks on an item whose checks fail
        (clean["item_id"], "stability"): 0,  # a clean answer called unstable
        (off_by_one["item_id"], "intent"): off_by_one["intent"] + 1,  # one point: within one
    }
    header, rows = read_csv(REAL_PLAN)
    column = {name: i for i, name in enumerate(header)}
    out_header = [*header, *METRIC_HEADERS.values()]
    out_rows = []
    for row in rows:
        item = rules[row[column["Item ID"]]]
        row = list(row)
        row[column["LLM 상태"]], row[column["LLM 점수"]] = "DONE", ""
        scores = {m: errors.get((item["item_id"], m), item[m]) for m in METRIC_HEADERS}
        if item["query_id"] == flaky["query_id"]:
            scores["consistency"] = 5  # the LLM calls a query whose rounds disagree consistent
        out_rows.append([*row, *(scores[m] for m in METRIC_HEADERS)])
    work = tmp_path_factory.mktemp("llm_audit")
    inputs = work / "input"
    inputs.mkdir()
    write_xlsx(inputs / PLATFORM_FILE, out_header, out_rows)
    warehouse = build(inputs, work, extra=["--exclude", "tag:rag"])
    return warehouse, {"fast": fast, "failing": failing, "clean": clean, "flaky": flaky,
                       "items": len(items), "queries": len({r["query_id"] for r in items})}


def kappas(con, source_file: str | None = None) -> list[tuple]:
    """Per agent, file and metric: (key, score_agreement.kappa, scikit-learn's κ of the same
    score_pairs, as kappa_weights says)."""
    pairs = defaultdict(lambda: ([], []))
    for p in all_rows(con, "select agent, source_file, metric, llm_score, rule_score "
                           "from score_pairs where rule_score is not null"):
        llm, rules = pairs[p["agent"], p["source_file"], p["metric"]]
        llm.append(p["llm_score"])
        rules.append(p["rule_score"])
    figures = all_rows(con, "select agent, source_file, metric, item_count, kappa_weights, kappa "
                            "from score_agreement order by all")
    found = []
    for f in figures:
        key = f["agent"], f["source_file"], f["metric"]
        if source_file in (None, f["source_file"]):
            assert len(pairs[key][0]) == f["item_count"]
            found.append((key, f["kappa"], kappa(*pairs[key], f["kappa_weights"])))
    return found


def test_kappa_of_the_samples_is_scikit_learns(con):
    found = kappas(con)
    assert {key[2] for key, *_ in found} >= {"intent", "accuracy"}
    for key, warehouse, reference in found:
        assert warehouse == pytest.approx(reference, abs=1e-12), key
    by_key = {key[1:]: warehouse for key, warehouse, _ in found}
    # the plan sample's four LLM-scored items: one a point above the rules, on each metric
    assert by_key["plan_agent_sample.csv", "intent"] == pytest.approx(0.75)
    assert by_key["plan_agent_sample.csv", "accuracy"] == pytest.approx(0.75)


def test_the_audit_only_selects_what_the_marts_hold():
    source = inspect.getsource(llm_audit).lower()
    for word in ("over (", "qualify", "string_agg", "count_if", "count(", " join ", "group by"):
        assert word not in source, word


@needs_real_data
def test_kappa_of_the_planted_errors_is_scikit_learns(planted):
    warehouse, _ = planted
    with warehouse.connect() as con:
        found = kappas(con, PLATFORM_FILE)
    assert [key[2] for key, *_ in found] == sorted(METRIC_HEADERS)
    for key, figure, reference in found:
        assert figure == pytest.approx(reference, abs=1e-12), key
    by_metric = {key[2]: figure for key, figure, _ in found}
    # one planted error among hundreds of items (131 queries for 일관성)
    assert all(0.9 < by_metric[m] < 1 for m in ("intent", "accuracy", "consistency", "speed"))
    # the rules call every real item stable: with one side constant, chance agreement is the
    # observed one and κ is 0 although 261 of 262 agree (κ's prevalence paradox)
    assert by_metric["stability"] == 0


@needs_real_data
def test_kappa_weighs_the_0_to_5_scales_and_not_the_pass_fail_rules(planted):
    warehouse, _ = planted
    with warehouse.connect() as con:
        weights = dict(con.execute("select metric, kappa_weights from score_agreement "
                                   "where source_file = ?", [PLATFORM_FILE]).fetchall())
    assert weights == {"intent": "quadratic", "accuracy": "quadratic", "speed": "quadratic",
                       "consistency": "none", "stability": "none"}


@needs_real_data
def test_far_apart_pairs_are_numbered_in_the_reports_order(planted):
    warehouse, _ = planted
    with warehouse.connect() as con:
        found = all_rows(con, "select metric_order, record_no, far_apart_rank, far_apart_count "
                              "from score_pairs_far_apart where source_file = ? "
                              "order by far_apart_rank", [PLATFORM_FILE])
        total = con.execute("select sum(far_apart) from score_agreement where source_file = ?",
                            [PLATFORM_FILE]).fetchone()[0]
    assert [r["far_apart_rank"] for r in found] == list(range(1, total + 1))
    assert found == sorted(found, key=lambda r: (r["metric_order"], r["record_no"]))
    assert {r["far_apart_count"] for r in found} == {total}


@needs_real_data
def test_score_agreement_counts_exactly_the_planted_errors(planted):
    warehouse, facts = planted
    with warehouse.connect() as con:
        found = {r.pop("metric"): r for r in all_rows(
            con,
            "select metric, item_count, exact_agree, within_one, llm_higher, llm_lower, "
            "far_apart, rule_unscored from score_agreement where source_file = ?",
            [PLATFORM_FILE])}
        cells = all_rows(con, "select metric, llm_score, rule_score, item_count "
                              "from score_agreement_cells where source_file = ? "
                              "and llm_score <> rule_score order by metric", [PLATFORM_FILE])
    n, queries = facts["items"], facts["queries"]
    assert found == {
        "intent": {"item_count": n, "exact_agree": n - 1, "within_one": n, "llm_higher": 1,
                   "llm_lower": 0, "far_apart": 0, "rule_unscored": 0},
        "accuracy": {"item_count": n, "exact_agree": n - 1, "within_one": n - 1,
                     "llm_higher": 1, "llm_lower": 0, "far_apart": 1, "rule_unscored": 0},
        "consistency": {"item_count": queries, "exact_agree": queries - 1,
                        "within_one": queries - 1, "llm_higher": 1, "llm_lower": 0,
                        "far_apart": 1, "rule_unscored": 0},
        "speed": {"item_count": n, "exact_agree": n - 1, "within_one": n - 1, "llm_higher": 0,
                  "llm_lower": 1, "far_apart": 1, "rule_unscored": 0},
        "stability": {"item_count": n, "exact_agree": n - 1, "within_one": n - 1,
                      "llm_higher": 0, "llm_lower": 1, "far_apart": 1, "rule_unscored": 0},
    }
    fast, failing = facts["fast"], facts["failing"]
    assert [(c["metric"], c["llm_score"], c["rule_score"], c["item_count"]) for c in cells] == [
        ("accuracy", 5, failing["accuracy"], 1), ("consistency", 5, 0, 1),
        ("intent", cells[2]["llm_score"], cells[2]["llm_score"] - 1, 1),
        ("speed", 0, fast["speed"], 1), ("stability", 0, 5, 1),
    ]


@needs_real_data
def test_the_report_lists_each_planted_error_and_why_the_rules_disagree(planted):
    warehouse, facts = planted
    with warehouse.connect() as con:
        text = render_report(con, "plan_agent", PLATFORM_FILE)
    table = table_with_header(text, "지표", "규칙이 본 것")
    by_metric = {row[0]: row for row in table[1:]}
    assert list(by_metric) == ["정확성", "일관성", "응답 속도", "안정성"]
    fast, failing, flaky = facts["fast"], facts["failing"], facts["flaky"]
    assert by_metric["응답 속도"][1:6] == [fast["query_id"], by_metric["응답 속도"][2], "0.0",
                                      f"{fast['speed']:.1f}", "LLM 오류"]
    assert f"responseTimeSec {fast['response_time_sec']:.3f}초" in by_metric["응답 속도"][6]
    assert by_metric["안정성"][5] == "LLM 오류"
    assert by_metric["정확성"][1] == failing["query_id"]
    assert by_metric["정확성"][5] == "규칙과 다름"
    assert by_metric["정확성"][6].startswith(
        f"체크 {failing['check_passed']}/{failing['check_count']} 통과; 실패: ")
    assert by_metric["일관성"][1:3] == [flaky["query_id"], "전체"]
    assert by_metric["일관성"][6].startswith("회차별 1/1=")
    agreement = table_with_header(text, "지표", "2점 이상 차이")
    assert [row[0] for row in agreement[1:]] == ["의도 충족", "정확성", "일관성", "응답 속도",
                                                 "안정성"]
    with warehouse.connect() as con:
        figures = [k for _, k, _ in kappas(con, PLATFORM_FILE)]
        order = [m for (m,) in con.execute("select metric from score_agreement where "
                                           "source_file = ? order by metric_order",
                                           [PLATFORM_FILE]).fetchall()]
    column = agreement[0].index("κ")
    by_metric_kappa = dict(zip(sorted(METRIC_HEADERS), figures, strict=True))
    assert [row[column] for row in agreement[1:]] == [num(by_metric_kappa[m]) for m in order]
