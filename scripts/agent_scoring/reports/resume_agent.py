"""Context for the resume agent (지원자 관리 에이전트) report, seed 002 §5."""

from __future__ import annotations

from agent_scoring.reports import Connection, Reporter, common, rows
from agent_scoring.reports.data_quality import data_quality

AGENT = "resume_agent"
METRICS = {
    "intent_score": "의도 충족",
    "accuracy_score": "정확성",
    "stability_score": "안정성",
    "item_speed_points_mean": "응답 속도",
    "consistency_score": "일관성",
}


def tracks(con: Connection, source_file: str) -> list[dict]:
    """Tracks present in the file with their item counts and rubric, in track order."""
    return rows(
        con,
        """
        select track, count(*) as item_count, min(speed_rubric) as speed_rubric,
               count(distinct speed_rubric) > 1 as mixed_rubric
        from item_scores
        where agent = ? and source_file = ? and track is not null
        group by track
        order by track
        """,
        [AGENT, source_file],
    )


def track_table(con: Connection, source_file: str, groups: list[str]) -> list[dict]:
    """Rounds then the set, each with a dict of per-group figures (missing group → None)."""
    per_round = rows(
        con,
        """
        select round_label as label, round_room, round_repeat, track, item_count,
               intent_score, accuracy_score, stability_score, mean_response_time_sec,
               speed_points, item_speed_points_mean, error_count, empty_count
        from round_scores where agent = ? and source_file = ?
        """,
        [AGENT, source_file],
    )
    per_set = rows(
        con,
        """
        select '세트' as label, track, item_count, intent_score, accuracy_score,
               stability_score, mean_response_time_sec, speed_points, item_speed_points_mean,
               error_count, empty_count, consistency_score
        from set_scores where agent = ? and source_file = ?
        """,
        [AGENT, source_file],
    )
    order = sorted(
        {(r["round_room"] or 0, r["round_repeat"] or 0, r["label"]) for r in per_round}
    )
    table = []
    for label in [label for _, _, label in order] + ["세트"]:
        source = per_set if label == "세트" else per_round
        cells = {r["track"]: r for r in source if r["label"] == label}
        table.append({"label": label, "groups": {g: cells.get(g) for g in groups}})
    return table


def consistency_by_track(con: Connection, source_file: str, groups: list[str]) -> list[dict]:
    found = rows(
        con,
        """
        select track, eligible_queries, all_pass, all_fail, mismatch, not_eligible,
               consistency_score
        from consistency where agent = ? and source_file = ?
        """,
        [AGENT, source_file],
    )
    by_track = {r["track"]: r for r in found}
    return [by_track[g] | {"label": "전체" if g == "all" else g} for g in groups if g in by_track]


def weakest_tracks(con: Connection, source_file: str) -> list[dict]:
    """Per metric, the track with the lowest set figure (ties: every tied track)."""
    found = rows(
        con,
        f"""
        select track, {", ".join(METRICS)}
        from set_scores
        where agent = ? and source_file = ? and track like 'Track _'
        """,
        [AGENT, source_file],
    )
    result = []
    for column, name in METRICS.items():
        scored = [r for r in found if r[column] is not None]
        if not scored:
            continue
        low = min(r[column] for r in scored)
        high = max(r[column] for r in scored)
        result.append(
            {
                "metric": name,
                "tracks": ", ".join(r["track"] for r in scored if r[column] == low),
                "score": low,
                "best": high,
            }
        )
    return result


def partial_phrases(con: Connection, source_file: str) -> list[dict]:
    """Which phrases made rows partial, most frequent first, with an example reply."""
    return rows(
        con,
        """
        select i.partial_phrase as phrase, count(*) as n,
               string_agg(distinct i.track, ', ' order by i.track) as tracks,
               string_agg(distinct i.query_id, ', ' order by i.query_id) as query_ids,
               left(any_value(i.reply_excerpt), 120) as example
        from item_scores as i
        where i.agent = ? and i.source_file = ? and i.status = 'partial'
        group by i.partial_phrase
        order by n desc, phrase
        """,
        [AGENT, source_file],
    )


def failed_queries(con: Connection, source_file: str) -> list[dict]:
    """Failing queries (error/empty in any round) grouped by track and message shape."""
    return rows(
        con,
        """
        select coalesce(track, '(Track 없음)') as track, status,
               coalesce(left(regexp_replace(error_message, '[0-9]+', 'N', 'g'), 80),
                        '(응답 없음)') as pattern,
               count(*) as n,
               string_agg(distinct query_id, ', ' order by query_id) as query_ids
        from item_scores
        where agent = ? and source_file = ? and status in ('error', 'empty')
        group by all
        order by n desc, track, pattern
        """,
        [AGENT, source_file],
    )


def context(con: Connection, source_file: str) -> dict:
    track_rows = tracks(con, source_file)
    track_names = [t["track"] for t in track_rows]
    groups = [*track_names, "all"]
    speed_groups = [g for g in ("Track 1+2",) if _has_group(con, source_file, g)]
    single_tracks = tuple(t["track"] for t in track_rows if t["speed_rubric"] == "single")
    multi_tracks = tuple(t["track"] for t in track_rows if t["speed_rubric"] == "multi")
    figures = common.rounds(con, AGENT, source_file)
    return {
        "source_file": source_file,
        "set": figures[-1],
        "round_labels": [r["label"] for r in figures[:-1]],
        "tracks": track_rows,
        "untracked_count": figures[-1]["item_count"] - sum(t["item_count"] for t in track_rows),
        "groups": groups,
        "speed_groups": speed_groups,
        "table": track_table(con, source_file, [*groups, *speed_groups]),
        "consistency": consistency_by_track(con, source_file, groups),
        "score_distributions": distributions(
            con, source_file, "intent_score", {"단일": single_tracks, "복수": multi_tracks}),
        "speed_distributions": distributions(
            con, source_file, "speed_points",
            {"단일 루브릭": single_tracks, "복수 루브릭": multi_tracks}),
        "score_sources": common.score_sources(con, AGENT, source_file),
        "statuses": common.statuses(con, AGENT, source_file),
        "failed_queries": failed_queries(con, source_file),
        "weakest_tracks": weakest_tracks(con, source_file),
        "mismatched_queries": common.mismatched_queries(con, AGENT, source_file),
        "partial_phrases": partial_phrases(con, source_file),
        "single_rubric": common.speed_rubric_text(con, "single"),
        "multi_rubric": common.speed_rubric_text(con, "multi"),
        "data_quality": data_quality(con, AGENT, source_file),
    }


def distributions(
    con: Connection, source_file: str, column: str, groups: dict[str, tuple[str, ...]]
) -> list[dict]:
    """0-5 distributions of `column` per rubric group of tracks, e.g. Track 1 + Track 2 (단일)."""
    return [
        {
            "name": f"{' + '.join(tracks)} ({label})",
            "rows": common.distribution(con, AGENT, source_file, column, tracks),
        }
        for label, tracks in groups.items()
        if tracks
    ]


def _has_group(con: Connection, source_file: str, group: str) -> bool:
    return bool(
        rows(
            con,
            "select 1 from set_scores where agent = ? and source_file = ? and track = ?",
            [AGENT, source_file, group],
        )
    )


def summary(ctx: dict) -> str:
    s = ctx["set"]
    counts = ", ".join(f"{t['track']} {t['item_count']}" for t in ctx["tracks"])
    return (
        f"{s['item_count']} items ({counts}), intent {common.fmt(s['intent_score'])}, "
        f"consistency {common.fmt(s['consistency_score'])}, "
        f"stability {common.fmt(s['stability_score'])}"
    )


REPORTER = Reporter(
    agent=AGENT,
    template="resume_agent_report.md.j2",
    required_tables=("item_scores", "round_scores", "set_scores", "consistency",
                     "query_consistency", "speed_bands"),
    sources=lambda con: common.sources(con, AGENT),
    context=context,
    summary=summary,
)
