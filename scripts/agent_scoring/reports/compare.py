"""Context of the run comparison report (`score-report compare`): one head run against its
base run. Every figure is a reporting model of the pair (history.pair_rows): the headline
changes (report_previous_runs), significance (report_run_comparisons), the sections and their
items (report_compare_changes, report_compare_items) and latency (report_compare_latency);
the trend is run_trends."""

from __future__ import annotations

from agent_scoring import history
from agent_scoring.markdown import num
from agent_scoring.reports import Connection, charts, rows

SLOWEST_SHOWN = 10
ITEMS = ("change, query_id, query_text, round_label, base_status, head_status, base_score, "
         "head_score, shortfall, flipped_checks, base_response_time_sec, head_response_time_sec, "
         "slowdown_sec")


def output_name(pair: history.Pair) -> str:
    return f"{history.stem(pair.head['source_file'])}_compare.md"


def trend_chart(runs: list[dict]) -> dict:
    """The last runs of the test set as mermaid xychart-beta charts (reports/charts.py)."""
    x = charts.labels([f"{r['run_seq']}. {history.stem(r['source_file'])}" for r in runs])

    def chart(title: str, columns: tuple[str, ...], digits: int, y_max: str) -> dict:
        # a chart line has no gaps: a run without the figure is drawn at 0 (the table says -)
        series = [[f"{r[c] or 0:.{digits}f}" for r in runs] for c in columns]
        return {"title": title, "x": x, "series": series, "y_max": y_max}

    times = [r["mean_response_time_sec"] for r in runs if r["mean_response_time_sec"] is not None]
    has_interval = any(r["intent_score_ci_low"] is not None for r in runs)
    return {
        "scores": chart("의도 충족 · 정확성 · 안정성 (0~5, 선 순서대로)",
                        ("intent_score", "accuracy_score", "stability_score"), 2, "5"),
        # xychart-beta draws no error bars: the interval is two more lines
        "intent_interval": chart("의도 충족과 95% 구간 (선: 하한, 값, 상한)",
                                 ("intent_score_ci_low", "intent_score", "intent_score_ci_high"),
                                 2, "5") if has_interval else None,
        "latency": chart("평균 응답 시간 (초)", ("mean_response_time_sec",), 3,
                         num(max(times) * 1.2 if times else 1, 1)),
        "runs": runs,
    }


def context(con: Connection, pair: history.Pair, trend_runs: int) -> dict:
    agent = rows(con, "select display_name from agents where agent = ?", [pair.agent])
    found = {
        "display_name": agent[0]["display_name"] if agent else pair.agent,
        "head": pair.head, "base": pair.base, "trend_runs": trend_runs,
        "trend": trend_chart(history.trend(con, pair.head, trend_runs)),
    }
    if pair.base is None:
        return found

    def of(model: str, selected: str = "*", where: str = "", order: str = "") -> list[dict]:
        return history.pair_rows(con, pair, model, selected, where, order)

    changes = of("report_compare_changes", order="change_order")
    items = of("report_compare_items", ITEMS, "change <> 'unchanged'", "item_rank")
    return found | {
        "pair": of("report_previous_runs")[0],
        "significance": of("report_run_comparisons", order="metric_order"),
        "counts": {c["change"]: c["item_count"] for c in changes},
        "sections": [c | {"rows": [i for i in items if i["change"] == c["change"]]}
                     for c in changes if c["change"] != "unchanged"],
        "latency": of("report_compare_latency", order="rubric_order"),
        "slowest": of("report_compare_items", ITEMS, f"slowdown_rank <= {SLOWEST_SHOWN}",
                      "slowdown_rank"),
    }


def summary(ctx: dict) -> str:
    if ctx["base"] is None:
        return "first run of its test set: nothing to compare"
    c = ctx["counts"]
    return (f"vs {ctx['base']['source_file']}: {c['regressed']} regressed, "
            f"{c['improved']} improved, {c['new']} new, {c['removed']} removed")
