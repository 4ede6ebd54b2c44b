"""What the resume agent's (지원자 관리 에이전트) report adds to the generic one, seed 002 §5:
every figure per track and track group, partial phrases and failures by track."""

from __future__ import annotations

from agent_scoring.reports import Connection, charts, common, select_by_file

AGENT = "resume_agent"
SPEED_GROUPS = ("Track 1+2",)
FIGURES = ("track, item_count, intent_score, accuracy_score, stability_score, "
           "mean_response_time_sec, speed_points, item_speed_points_mean, error_count, "
           "empty_count")
# section -> (model, columns, order), every track and track group of the agent's files
SECTIONS = {
    "tracks": ("report_tracks", "track, item_count, speed_rubric, mixed_rubric", "track"),
    "per_round": ("round_scores", f"round_label as label, round_room, round_repeat, {FIGURES}",
                  ""),
    "per_set": ("set_scores", f"'세트' as label, consistency_score, {FIGURES}", ""),
    "consistency": ("consistency", "track, eligible_queries, all_pass, all_fail, mismatch, "
                    "not_eligible, consistency_score", ""),
    "weakest_tracks": ("report_weakest_tracks", "metric_label, weakest_tracks, lowest, "
                       "highest", "metric_order"),
    "partial_phrases": ("report_partial_phrases", "phrase, item_count, tracks, query_ids, "
                        "example", "phrase_rank"),
    "failed_queries": ("report_track_failures", "track, status, pattern, item_count, "
                       "query_ids", "failure_rank"),
}


def track_table(per_round: list[dict], per_set: list[dict], groups: list[str]) -> list[dict]:
    """One file's rounds then set, each with a dict of per-group figures (missing → None)."""
    order = sorted(
        {(r["round_room"] or 0, r["round_repeat"] or 0, r["label"]) for r in per_round}
    )
    table = []
    for label in [label for _, _, label in order] + ["세트"]:
        source = per_set if label == "세트" else per_round
        cells = {r["track"]: r for r in source if r["label"] == label}
        table.append({"label": label, "groups": {g: cells.get(g) for g in groups}})
    return table


def consistency_by_track(found: list[dict], groups: list[str]) -> list[dict]:
    by_track = {r["track"]: r for r in found}
    return [by_track[g] | {"label": "전체" if g == "all" else g} for g in groups if g in by_track]


def extra_contexts(
    con: Connection, source_files: list[str], contexts: dict[str, dict]
) -> dict[str, dict]:
    """Per file: the track tables; every query runs once for all the files."""
    fetched = {name: select_by_file(con, model, selected, source_files, agent=AGENT,
                                    order=order)
               for name, (model, selected, order) in SECTIONS.items()}
    for metric in ("intent_score", "speed_points"):
        fetched[metric] = by_group(con, source_files, metric)
    return {
        f: _context(contexts[f], {name: values[f] for name, values in fetched.items()})
        for f in source_files
    }


def by_group(con: Connection, source_files: list[str], metric: str) -> dict[str, dict]:
    """Per file: the distribution of `metric` per rubric group of its tracks."""
    groups = {rubric: common.distributions(con, AGENT, source_files, metric, rubric)
              for rubric in ("single", "multi")}
    return {f: {rubric: found[f] for rubric, found in groups.items()} for f in source_files}


def _context(base: dict, d: dict) -> dict:
    """One file's track figures from its share `d` of the batched rows."""
    track_rows = d["tracks"]
    groups = [*(t["track"] for t in track_rows), "all"]
    speed_groups = [g for g in SPEED_GROUPS if any(r["track"] == g for r in d["per_set"])]
    return {
        "tracks": track_rows,
        "untracked_count": base["item_counts"]["untracked_count"],
        "groups": groups,
        "speed_groups": speed_groups,
        "table": track_table(d["per_round"], d["per_set"], [*groups, *speed_groups]),
        "consistency": consistency_by_track(d["consistency"], groups),
        "score_distributions": distributions(
            d["intent_score"], track_rows, {"single": "단일", "multi": "복수"}, "scores"),
        "speed_distributions": distributions(
            d["speed_points"], track_rows, {"single": "단일 루브릭", "multi": "복수 루브릭"},
            "speed"),
        "weakest_tracks": d["weakest_tracks"],
        "partial_phrases": d["partial_phrases"],
        "failed_queries": d["failed_queries"],
    }


def distributions(
    by_rubric: dict[str, list[dict]], track_rows: list[dict], labels: dict[str, str], kind: str
) -> list[dict]:
    """0-5 distributions per rubric group of one file's tracks (`labels`: rubric → name),
    e.g. Track 1 + Track 2 (단일), each with its chart (`kind`: scores or speed)."""
    result = []
    for rubric, label in labels.items():
        group = tuple(t["track"] for t in track_rows if t["speed_rubric"] == rubric)
        if group:
            name = f"{' + '.join(group)} ({label})"
            rows = by_rubric[rubric]
            chart = (charts.score_lines(rows, name) if kind == "scores"
                     else charts.band_bars(rows, None, f"{name}, 세트"))
            result.append({"name": name, "rows": rows, "chart": chart})
    return result


def summary(ctx: dict) -> str:
    s = ctx["set"]
    counts = ", ".join(f"{t['track']} {t['item_count']}" for t in ctx["tracks"])
    return (
        f"{s['item_count']} items ({counts}), intent {common.fmt(s['intent_score'])}, "
        f"consistency {common.fmt(s['consistency_score'])}, "
        f"stability {common.fmt(s['stability_score'])}"
    )
