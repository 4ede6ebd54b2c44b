"""Context of the run comparison report (`score-report compare`): one head run against its
base run, from the runs, item_changes and run_trends marts (agent_scoring.history)."""

from __future__ import annotations

from agent_scoring import history, significance
from agent_scoring.markdown import num
from agent_scoring.reports import Connection, charts, rows

CHANGE_TITLES = {
    "regressed": "회귀 (통과 → 실패)",
    "improved": "개선 (실패 → 통과)",
    "score_down": "점수 하락 (같은 판정, 1점 이상)",
    "score_up": "점수 상승 (같은 판정, 1점 이상)",
    "new": "새 질의 (이번 실행에만 있음)",
    "removed": "빠진 질의 (이전 실행에만 있음)",
}


def output_name(pair: history.Pair) -> str:
    return f"{history.stem(pair.head['source_file'])}_compare.md"


def display_name(con: Connection, agent: str) -> str:
    found = rows(con, "select display_name from agents where agent = ?", [agent])
    return found[0]["display_name"] if found else agent


def headline(pair: history.Pair) -> list[dict]:
    result = []
    for column, label, digits in (*history.HEADLINE, ("item_count", "문항 수", 0)):
        head = pair.head[column]
        base = pair.base[column] if pair.base else None
        delta = head - base if head is not None and base is not None else None
        result.append({"label": label, "base": base, "head": head, "delta": delta,
                       "digits": digits})
    return result


UPWARD = ("improved", "score_up", "removed")  # the base side is the one that fell short


def reason(item: dict, side: str) -> str:
    """Why an item falls short on one side: its error, an empty reply, else its failed
    checks."""
    if item[f"{side}_status"] == "empty":
        return "빈 응답 (assistantMessage·dataUIList 없음)"
    return item[f"{side}_error_message"] or item[f"{side}_failed_checks"] or ""


def grouped(changes: list[dict]) -> list[dict]:
    sections = []
    for change in history.CHANGE_ORDER:
        items = [c for c in changes if c["change"] == change]
        upward = change in UPWARD
        for item in items:
            item["reason"] = reason(item, "base" if upward else "head")
            flipped = item["checks_passing_now"] if upward else item["checks_failing_now"]
            item["flipped"] = ", ".join(flipped or [])
        sections.append({"change": change, "title": CHANGE_TITLES[change], "upward": upward,
                         "rows": sorted(items, key=_item_order)})
    return sections


def _item_order(item: dict) -> tuple:
    return (item["query_id"] or "", item["round_room"] or 0, item["round_repeat"] or 0)


def latency_rows(con: Connection, pair: history.Pair) -> list[dict]:
    head = history.latency(con, pair.head["source_file"])
    base = history.latency(con, pair.base["source_file"]) if pair.base else {}
    found = []
    names = rows(con, "select distinct speed_rubric, rubric_name from speed_bands "
                 "order by speed_rubric desc")
    for rubric, name in ((r["speed_rubric"], r["rubric_name"]) for r in names):
        if head.get(f"p50_{rubric}_sec") is None and base.get(f"p50_{rubric}_sec") is None:
            continue
        found.append({
            "rubric": name,
            "base_p50": base.get(f"p50_{rubric}_sec"), "head_p50": head.get(f"p50_{rubric}_sec"),
            "base_p90": base.get(f"p90_{rubric}_sec"), "head_p90": head.get(f"p90_{rubric}_sec"),
            "p90_increase": history.p90_increase(base, head, rubric) if base else None,
        })
    return found


def slowest_growing(changes: list[dict]) -> list[dict]:
    timed = [c for c in changes
             if c["base_response_time_sec"] is not None
             and c["head_response_time_sec"] is not None
             and c["head_response_time_sec"] > c["base_response_time_sec"]]
    for c in timed:
        c["growth"] = c["head_response_time_sec"] - c["base_response_time_sec"]
    return sorted(timed, key=lambda c: (-c["growth"], *_item_order(c)))[:history.SLOWEST_SHOWN]


def trend_chart(runs: list[dict]) -> dict:
    """The last runs of the test set as mermaid xychart-beta charts (reports/charts.py)."""
    x = charts.labels([f"{r['run_seq']}. {history.stem(r['source_file'])}" for r in runs])

    def series(column: str, digits: int) -> list[str]:
        # a chart line has no gaps: a run without the figure is drawn at 0 (the table says -)
        return [f"{r[column] or 0:.{digits}f}" for r in runs]

    def chart(chart_title: str, columns: tuple[str, ...], digits: int, y_max: str) -> dict:
        return {"title": chart_title, "x": x, "series": [series(c, digits) for c in columns],
                "y_max": y_max}

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


# what graded a run on the platform (runs columns): runs graded differently may differ by it
GRADING = (("llm_models", "LLM 모델"), ("prompt_versions", "프롬프트 버전"))


def grading_changes(pair: history.Pair) -> list[dict]:
    """The grading conditions (model, prompt) in which base and head differ."""
    if pair.base is None:
        return []
    return [{"label": label, "base": pair.base.get(column), "head": pair.head.get(column)}
            for column, label in GRADING if pair.base.get(column) != pair.head.get(column)]


def context(con: Connection, pair: history.Pair, trend_runs: int) -> dict:
    changes = history.changes(con, pair)
    counts = {change: sum(c["change"] == change for c in changes)
              for change in (*history.CHANGE_ORDER, "unchanged")}
    return {
        "agent": pair.agent,
        "display_name": display_name(con, pair.agent),
        "head": pair.head,
        "base": pair.base,
        "headline": headline(pair),
        "significance": significance.changes(con, pair),
        "grading_changes": grading_changes(pair),
        "counts": counts,
        "sections": grouped(changes),
        "latency": latency_rows(con, pair),
        "slowest": slowest_growing(changes),
        "trend": trend_chart(history.trend(con, pair.head, trend_runs)),
        "trend_runs": trend_runs,
    }


def summary(ctx: dict) -> str:
    if ctx["base"] is None:
        return "first run of its test set: nothing to compare"
    c = ctx["counts"]
    return (f"vs {ctx['base']['source_file']}: {c['regressed']} regressed, "
            f"{c['improved']} improved, {c['new']} new, {c['removed']} removed")
