"""The report every registered agent gets, from the shared marts only.

Each query runs once for all the files being rendered and returns their rows by file.
Nothing here names an agent: what an agent is (display name, checklist, own marts, speed
rubric) comes from the `agents` mart; what is an agent's own comes from its extension
module (see `agent_scoring.reports`).
"""

from __future__ import annotations

from importlib.resources import files as package_files
from pathlib import PurePath
from types import ModuleType

from agent_scoring import significance
from agent_scoring.db import columns, table_comment
from agent_scoring.reports import (
    IN_FILES,
    RUBRIC_NAMES,
    ByFile,
    Connection,
    Reporter,
    charts,
    first_by_file,
    rows,
    rows_by_file,
    tables,
)
from agent_scoring.reports.data_quality import data_quality_by_file
from agent_scoring.reports.llm_audit import audits
from agent_scoring.reports.platform import checklists, platform_figures

SCORE_BUCKETS = [0, 1, 2, 3, 4, 5]
BUCKETS = ", ".join(f"bucket_{b}" for b in SCORE_BUCKETS)
COUNTS = ", ".join([*(f"status_{s}_count" for s in ("ok", "partial", "error", "empty")),
                    *(f"source_{s}_count" for s in ("llm", "heuristic", "gate", "none"))])
GENERIC_TEMPLATE = "generic_report.md.j2"
REQUIRED_TABLES = ("agents", "runs", "round_scores", "set_scores", "consistency", "speed_bands",
                   "pass_ratio_bands",
                   "report_score_distribution", "report_failure_patterns",
                   "report_mismatched_queries", "report_item_counts", "report_failed_checks",
                   "report_check_kinds", "report_previous_runs", "report_run_comparisons")
# The speed rubrics each registry rule can give an agent's rows, for the criteria section.
RUBRICS_OF_RULE = {
    "single": ("single",), "multi": ("multi",),
    "by_workers": ("single", "multi"), "by_track": ("single", "multi"),
}
NO_CONSISTENCY = {
    "eligible_queries": 0, "all_pass": 0, "all_fail": 0, "mismatch": 0,
    "not_eligible": 0, "consistency_score": None,
}
SHOWN_MART_ROWS = 20


def sources(con: Connection, agent: str) -> list[str]:
    return [r["source_file"] for r in rows(
        con, "select source_file from runs where agent = ? order by source_file", [agent])]


# the 95% interval columns round_scores and set_scores share (macros/confidence.sql)
INTERVALS = ", ".join(
    f"{figure}_ci_{end}"
    for figure in ("intent_score", "accuracy_score", "stability_score", "mean_response_time_sec",
                   "speed_points", "item_speed_points_mean")
    for end in ("low", "high")
)


def rounds(con: Connection, agent: str, source_files: list[str], track: str = "all") -> ByFile:
    """Per file: round figures in round order, then the set as a last row labelled '세트'."""
    per_round = rows_by_file(
        con,
        f"""
        select source_file, round_label as label, item_count, scored_count, error_count,
               empty_count, llm_count, heuristic_count, intent_score, accuracy_score,
               stability_score, timed_count, mean_response_time_sec, speed_points,
               item_speed_points_mean, speed_rubric, {INTERVALS}
        from round_scores
        where agent = ? and source_file {IN_FILES} and track = ?
        order by round_room nulls last, round_repeat nulls last, round_label
        """,
        [agent, source_files, track],
    )
    the_set = rows_by_file(
        con,
        f"""
        select source_file, '세트' as label, item_count, error_count, empty_count, llm_count,
               heuristic_count, intent_score, accuracy_score, stability_score,
               mean_response_time_sec, speed_points, item_speed_points_mean,
               consistency_score, speed_rubric, {INTERVALS},
               consistency_score_ci_low, consistency_score_ci_high
        from set_scores
        where agent = ? and source_file {IN_FILES} and track = ?
        """,
        [agent, source_files, track],
    )
    return {f: per_round[f] + the_set[f] for f in source_files}


def distributions(
    con: Connection, agent: str, source_files: list[str], metric: str, item_group: str = "all"
) -> ByFile:
    """Per file: the 0-5 distribution of `metric` (intent_score or speed_points) per round
    and for the set (report_score_distribution), as display rows."""
    found = rows_by_file(
        con,
        f"""
        select source_file, row_label, {BUCKETS}, missing, total, bucket_text
        from report_score_distribution
        where agent = ? and source_file {IN_FILES} and metric = ? and item_group = ?
        order by row_order
        """,
        [agent, source_files, metric, item_group],
    )
    return {f: [{"label": r["row_label"], "buckets": [r[f"bucket_{b}"] for b in SCORE_BUCKETS],
                 "missing": r["missing"], "total": r["total"], "text": r["bucket_text"]}
                for r in found[f]]
            for f in source_files}


def failure_patterns(
    con: Connection, agent: str, source_files: list[str], limit: int = 10
) -> ByFile:
    """Per file: error/empty items by the shape of their message, the `limit` most frequent."""
    return rows_by_file(
        con,
        f"""
        select source_file, status, pattern, item_count, rounds, query_ids
        from report_failure_patterns
        where agent = ? and source_file {IN_FILES} and pattern_rank <= ?
        order by pattern_rank
        """,
        [agent, source_files, limit],
    )


def mismatched_queries(
    con: Connection, agent: str, source_files: list[str], track: str = "all"
) -> ByFile:
    """Per file: Query IDs whose rounds disagree on pass/fail, with each round's score."""
    return rows_by_file(
        con,
        f"""
        select source_file, query_id, query_text, item_track, round_scores
        from report_mismatched_queries
        where agent = ? and source_file {IN_FILES} and track = ?
        order by query_id
        """,
        [agent, source_files, track],
    )


def item_counts(con: Connection, agent: str, source_files: list[str]) -> dict[str, dict]:
    """Per file: its Query IDs and items per status and score source."""
    found = rows_by_file(
        con,
        f"""
        select source_file, query_count, untracked_count, {COUNTS}
        from report_item_counts
        where agent = ? and source_file {IN_FILES}
        """,
        [agent, source_files],
    )
    return first_by_file(found, source_files, {})


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def band_labels(con: Connection, rubric: str) -> list[str]:
    """Each band of the rubric as a chart names it, most points first: `5점 ≤5초`."""
    return [r["band_label"] for r in rows(
        con, "select band_label from speed_bands where speed_rubric = ? order by points desc",
        [rubric])]


def speed_rubric_text(con: Connection, rubric: str) -> str:
    """The rubric as the seeds write it, e.g. `<=5:5, 5~8:4, …, >20:0`."""
    return rows(con, "select rubric_text from speed_bands where speed_rubric = ? limit 1",
                [rubric])[0]["rubric_text"]


def most_failed_checks(
    con: Connection, agent: str, source_files: list[str], limit: int = 10
) -> ByFile:
    """Per file: the `limit` (check, expected value) pairs that failed most."""
    return rows_by_file(
        con,
        f"""
        select source_file, check_kind, expected_value, failed, evaluated
        from report_failed_checks
        where agent = ? and source_file {IN_FILES} and failed_rank <= ?
        order by failed_rank
        """,
        [agent, source_files, limit],
    )


def failed_checks_by_kind(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, check_kind, failed, evaluated, fail_rate, value_elsewhere
        from report_check_kinds
        where agent = ? and source_file {IN_FILES}
        order by failed desc, check_kind
        """,
        [agent, source_files],
    )


def consistency(
    con: Connection, agent: str, source_files: list[str], track: str = "all"
) -> dict[str, dict]:
    found = rows_by_file(
        con,
        f"""
        select source_file, eligible_queries, all_pass, all_fail, mismatch, not_eligible,
               consistency_score
        from consistency where agent = ? and source_file {IN_FILES} and track = ?
        """,
        [agent, source_files, track],
    )
    return first_by_file(found, source_files, NO_CONSISTENCY)


def repeats(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    """Per file: pass@k, pass^k and flaky queries per track group, 'all' first."""
    return rows_by_file(
        con,
        f"""
        select source_file, track, pass_k, pass_k_query_count, pass_any_round_rate,
               pass_all_rounds_rate, flaky_query_count, fewer_rounds_query_count,
               pass_any_round_rate_ci_low, pass_any_round_rate_ci_high,
               pass_all_rounds_rate_ci_low, pass_all_rounds_rate_ci_high
        from set_scores
        where agent = ? and source_file {IN_FILES} and pass_k is not null
        order by track <> 'all', track
        """,
        [agent, source_files],
    )


def own_marts(con: Connection, marts: list[str], source_files: list[str]) -> dict[str, list]:
    """Per file: each of the agent's own marts (see the agents mart) with its description
    and its first rows for that file, for the generic report to show as tables."""
    result: dict[str, list] = {f: [] for f in source_files}
    present = tables(con)
    for mart in marts:
        names = columns(con, mart) if mart in present else []
        if "source_file" not in names:
            continue
        shown = [c for c in names if c not in ("agent", "source_file", "file_fingerprint")]
        order = "record_no" if "record_no" in shown else ", ".join(shown)
        for f in source_files:
            table = rows(con, f"select {', '.join(shown)} from {mart} where source_file = ? "
                              f"order by {order} limit {SHOWN_MART_ROWS}", [f])
            # the agent's own mart: no reporting model knows its rows, so count them here
            total = rows(con, f"select count(*) as n from {mart} where source_file = ?",
                         [f])[0]["n"]
            result[f].append({
                "name": mart,
                "description": table_comment(con, mart),
                "columns": shown,
                "rows": [[r[c] for c in shown] for r in table],
                "hidden": max(0, total - len(table)),
            })
    return result


def previous_runs(con: Connection, source_files: list[str]) -> dict[str, dict | None]:
    """Per file: its previous run with the headline changes and how many items regressed
    or improved since, and its comparisons judged at 95%; None for the first run of a
    test set."""
    found = rows_by_file(
        con,
        f"""
        select source_file, base_file, intent_delta, accuracy_delta, consistency_delta,
               stability_delta, latency_delta, regressed, improved
        from report_previous_runs
        where source_file {IN_FILES}
        """,
        [source_files],
    )
    compared = rows_by_file(
        con, f"select * from report_run_comparisons where source_file {IN_FILES}",
        [source_files])
    order = list(significance.METRICS)
    return {
        f: {**found[f][0], "changes": [
            significance.judge(r)
            for r in sorted(compared[f], key=lambda r: order.index(r["metric"]))]}
        if found[f] else None
        for f in source_files
    }


def pass_ratio_rule(con: Connection) -> str:
    """The checklist pass-ratio rule as the team writes it, from the pass_ratio_bands mart."""
    return rows(con, "select rule_text from pass_ratio_bands limit 1")[0]["rule_text"]


def speed_rubrics(con: Connection, rule: str) -> list[dict]:
    """The rubrics an agent's speed rule can use, named and written as the seeds do."""
    return [
        {"rubric": r, "name": RUBRIC_NAMES[r], "text": speed_rubric_text(con, r)}
        for r in RUBRICS_OF_RULE.get(rule, ("single",))
    ]


def contexts(con: Connection, spec: dict, source_files: list[str]) -> list[dict]:
    """Each file's context for the generic report; every query runs once for all files."""
    agent = spec["agent"]
    figures = rounds(con, agent, source_files)
    scores = distributions(con, agent, source_files, "intent_score")
    speeds = distributions(con, agent, source_files, "speed_points")
    rubrics = speed_rubrics(con, spec["speed_rubric"])
    checks = spec["has_check_results"]
    rule_text = pass_ratio_rule(con) if checks else None
    per_file = {
        "item_counts": item_counts(con, agent, source_files),
        "consistency": consistency(con, agent, source_files),
        "failure_patterns": failure_patterns(con, agent, source_files),
        "mismatched_queries": mismatched_queries(con, agent, source_files),
        "repeats": repeats(con, agent, source_files),
        "most_failed_checks": (
            most_failed_checks(con, agent, source_files) if checks else _empty(source_files)),
        "failed_checks_by_kind": (
            failed_checks_by_kind(con, agent, source_files) if checks
            else _empty(source_files)),
        "own_marts": own_marts(con, list(spec["own_marts"] or []), source_files),
        "previous_run": previous_runs(con, source_files),
        "data_quality": data_quality_by_file(con, agent, source_files),
        "llm_audit": audits(con, agent, source_files),
        "platform": platform_figures(con, agent, source_files),
        "checklist": checklists(con, agent, source_files),
    }
    return [
        {
            "agent": agent,
            "display_name": spec["display_name"],
            "source_file": f,
            "source_stem": PurePath(f).stem,
            "has_check_results": checks,
            "rounds": figures[f][:-1],
            "set": figures[f][-1],
            "figures": figures[f],
            "round_labels": [r["label"] for r in figures[f][:-1]],
            "score_distribution": scores[f],
            "speed_distribution": speeds[f],
            "charts": {
                "scores": charts.score_lines(scores[f]),
                "speed": charts.band_bars(
                    speeds[f],
                    band_labels(con, rubrics[0]["rubric"]) if len(rubrics) == 1 else None),
            },
            "speed_rubrics": rubrics,
            "pass_ratio_rule": rule_text,
            "speed_rubric_name": " / ".join(r["name"] for r in rubrics),
            **{name: values[f] for name, values in per_file.items()},
        }
        for f in source_files
    ]


def _empty(source_files: list[str]) -> ByFile:
    return {f: [] for f in source_files}


def summary(ctx: dict) -> str:
    s = ctx["set"]
    return (
        f"{s['item_count']} items, intent {fmt(s['intent_score'])}, "
        f"consistency {fmt(ctx['consistency']['consistency_score'])}, "
        f"speed {fmt(s['mean_response_time_sec'], 3)}s, "
        f"stability {fmt(s['stability_score'])}"
    )


def has_template(name: str) -> bool:
    return package_files("agent_scoring").joinpath("templates", name).is_file()


def agent_reporter(spec: dict, extension: ModuleType | None) -> Reporter:
    """The reporter of one registered agent: the generic report, extended by the agent's
    own template and module when it has them."""
    agent = spec["agent"]
    own_template = f"{agent}_report.md.j2"
    extra = getattr(extension, "extra_contexts", None)

    def batch(con: Connection, source_files: list[str]) -> list[dict]:
        base = contexts(con, spec, source_files)
        if extra is None:
            return base
        added = extra(con, source_files, {c["source_file"]: c for c in base})
        return [c | added[c["source_file"]] for c in base]

    return Reporter(
        agent=agent,
        template=own_template if has_template(own_template) else GENERIC_TEMPLATE,
        required_tables=REQUIRED_TABLES + tuple(getattr(extension, "REQUIRED_TABLES", ())),
        sources=lambda con: sources(con, agent),
        context=lambda con, f: batch(con, [f])[0],
        summary=getattr(extension, "summary", summary),
        batch_context=batch,
    )
