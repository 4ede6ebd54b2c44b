"""The report every registered agent gets, from the shared marts and reporting models only.

Each section is one plain select for all the files being rendered, split by file. Nothing
here names an agent: what an agent is (display name, checklist, own marts, speed rubric)
comes from the `agents` mart; what is an agent's own comes from its extension module (see
`agent_scoring.reports`).
"""

from __future__ import annotations

from importlib.resources import files as package_files
from pathlib import PurePath
from types import ModuleType

from agent_scoring.db import columns, table_comment
from agent_scoring.reports import (
    ByFile,
    Connection,
    Reporter,
    charts,
    first_by_file,
    rows,
    select_by_file,
    tables,
)
from agent_scoring.reports.data_quality import data_quality_by_file
from agent_scoring.reports.llm_audit import audits
from agent_scoring.reports.platform import checklists, platform_figures

GENERIC_TEMPLATE = "generic_report.md.j2"
REQUIRED_TABLES = ("agents", "runs", "round_scores", "set_scores", "consistency", "speed_bands",
                   "pass_ratio_bands", "report_score_distribution", "report_failure_patterns",
                   "report_mismatched_queries", "report_item_counts", "report_failed_checks",
                   "report_check_kinds", "report_previous_runs", "report_run_comparisons")
NO_CONSISTENCY = {
    "eligible_queries": 0, "all_pass": 0, "all_fail": 0, "mismatch": 0,
    "not_eligible": 0, "consistency_score": None,
}
SHOWN_MART_ROWS = 20
# the 95% interval columns round_scores and set_scores share (macros/confidence.sql)
INTERVALS = ", ".join(
    f"{figure}_ci_{end}"
    for figure in ("intent_score", "accuracy_score", "stability_score", "mean_response_time_sec",
                   "speed_points", "item_speed_points_mean")
    for end in ("low", "high")
)
FIGURES = ("item_count, error_count, empty_count, llm_count, heuristic_count, intent_score, "
           "accuracy_score, stability_score, mean_response_time_sec, speed_points, "
           f"item_speed_points_mean, speed_rubric, {INTERVALS}")
# section -> (model, columns, condition, order): each a plain select of the agent's files
SECTIONS = {
    "per_round": ("round_scores", f"round_label as label, scored_count, timed_count, {FIGURES}",
                  "track = 'all'", "round_room nulls last, round_repeat nulls last, round_label"),
    "the_set": ("set_scores", f"'세트' as label, consistency_score, consistency_score_ci_low, "
                f"consistency_score_ci_high, {FIGURES}", "track = 'all'", ""),
    "item_counts": ("report_item_counts", "query_count, untracked_count, " + ", ".join(
        [*(f"status_{s}_count" for s in ("ok", "partial", "error", "empty")),
         *(f"source_{s}_count" for s in ("llm", "heuristic", "gate", "none"))]), "", ""),
    "consistency": ("consistency", "eligible_queries, all_pass, all_fail, mismatch, "
                    "not_eligible, consistency_score", "track = 'all'", ""),
    "failure_patterns": ("report_failure_patterns", "status, pattern, item_count, rounds, "
                         "query_ids", "pattern_rank <= 10", "pattern_rank"),
    "mismatched_queries": ("report_mismatched_queries", "query_id, query_text, item_track, "
                           "round_scores", "track = 'all'", "query_id"),
    "repeats": ("set_scores", "track, pass_k, pass_k_query_count, pass_any_round_rate, "
                "pass_all_rounds_rate, flaky_query_count, fewer_rounds_query_count, "
                "pass_any_round_rate_ci_low, pass_any_round_rate_ci_high, "
                "pass_all_rounds_rate_ci_low, pass_all_rounds_rate_ci_high",
                "pass_k is not null", "track <> 'all', track"),
    "most_failed_checks": ("report_failed_checks", "check_kind, expected_value, failed, "
                           "evaluated", "failed_rank <= 10", "failed_rank"),
    "failed_checks_by_kind": ("report_check_kinds", "check_kind, failed, evaluated, "
                              "fail_rate, value_elsewhere", "", "failed desc, check_kind"),
    # the change since the previous run, and whether each metric's change is significant
    "previous_run": ("report_previous_runs", "base_file, intent_delta, accuracy_delta, "
                     "consistency_delta, stability_delta, latency_delta, regressed, improved",
                     "", ""),
    "previous_run_changes": ("report_run_comparisons", "metric_label, as_share, delta, "
                             "delta_ci_low, delta_ci_high, verdict_label, regressed, improved, "
                             "mcnemar_p", "", "metric_order"),
}
CHECK_SECTIONS = ("most_failed_checks", "failed_checks_by_kind")


def sources(con: Connection, agent: str) -> list[str]:
    return [r["source_file"] for r in rows(
        con, "select source_file from runs where agent = ? order by source_file", [agent])]


def section(con: Connection, name: str, agent: str, source_files: list[str]) -> ByFile:
    model, selected, condition, order = SECTIONS[name]
    return select_by_file(con, model, selected, source_files, agent=agent, where=condition,
                          order=order)


def distributions(
    con: Connection, agent: str, source_files: list[str], metric: str, item_group: str = "all"
) -> ByFile:
    """Per file: the 0-5 distribution of `metric` (intent_score or speed_points) per round
    and for the set (report_score_distribution)."""
    return select_by_file(
        con, "report_score_distribution", "row_label as label, buckets, missing, total, "
        "bucket_text as text", source_files, agent=agent, where="metric = ? and item_group = ?",
        params=(metric, item_group), order="row_order")


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def band_labels(con: Connection, rubric: str) -> list[str]:
    """Each band of the rubric as a chart names it, most points first: `5점 ≤5초`."""
    return [r["band_label"] for r in rows(
        con, "select band_label from speed_bands where speed_rubric = ? order by points desc",
        [rubric])]


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
                "name": mart, "description": table_comment(con, mart), "columns": shown,
                "rows": [[r[c] for c in shown] for r in table],
                "hidden": max(0, total - len(table)),
            })
    return result


def speed_rubrics(con: Connection, rubrics: list[str]) -> list[dict]:
    """The rubrics (agents.speed_rubrics), in that order, named and written as the seeds
    write them (`<=5:5, 5~8:4, …, >20:0`)."""
    found = {r["rubric"]: r for r in rows(
        con, "select speed_rubric as rubric, rubric_name as name, rubric_text as text "
        "from speed_bands where points = 5 and speed_rubric in ?", [list(rubrics)])}
    return [found[r] for r in rubrics]


def contexts(con: Connection, spec: dict, source_files: list[str]) -> list[dict]:
    """Each file's context for the generic report; every query runs once for all files."""
    agent, checks = spec["agent"], spec["has_check_results"]
    found = {name: section(con, name, agent, source_files) for name in SECTIONS
             if checks or name not in CHECK_SECTIONS}
    scores = distributions(con, agent, source_files, "intent_score")
    speeds = distributions(con, agent, source_files, "speed_points")
    rubrics = speed_rubrics(con, spec["speed_rubrics"])
    bands = band_labels(con, rubrics[0]["rubric"]) if len(rubrics) == 1 else None
    # the checklist pass-ratio rule as the team writes it (pass_ratio_bands)
    pass_ratio_rule = rows(con, "select rule_text from pass_ratio_bands limit 1")[0]["rule_text"]
    per_file = {
        "own_marts": own_marts(con, list(spec["own_marts"] or []), source_files),
        "data_quality": data_quality_by_file(con, agent, source_files),
        "llm_audit": audits(con, agent, source_files),
        "platform": platform_figures(con, agent, source_files),
        "checklist": checklists(con, agent, source_files),
    }
    contexts = []
    for f in source_files:
        figures = found["per_round"][f] + found["the_set"][f]
        contexts.append({
            "agent": agent,
            "display_name": spec["display_name"],
            "source_file": f,
            "source_stem": PurePath(f).stem,
            "has_check_results": checks,
            "rounds": figures[:-1],
            "set": figures[-1],
            "figures": figures,
            "round_labels": [r["label"] for r in figures[:-1]],
            "item_counts": first_by_file(found["item_counts"], [f], {})[f],
            "consistency": first_by_file(found["consistency"], [f], NO_CONSISTENCY)[f],
            **{name: found.get(name, {}).get(f, []) for name in (
                "failure_patterns", "mismatched_queries", "repeats", *CHECK_SECTIONS)},
            "score_distribution": scores[f],
            "speed_distribution": speeds[f],
            "charts": {"scores": charts.score_lines(scores[f]),
                       "speed": charts.band_bars(speeds[f], bands)},
            "speed_rubrics": rubrics,
            "speed_rubric_name": " / ".join(r["name"] for r in rubrics),
            "pass_ratio_rule": pass_ratio_rule if checks else None,
            "previous_run": (found["previous_run"][f][0] | {
                "changes": found["previous_run_changes"][f]} if found["previous_run"][f] else None),
            **{name: values[f] for name, values in per_file.items()},
        })
    return contexts


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
