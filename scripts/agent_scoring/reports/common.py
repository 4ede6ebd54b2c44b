"""Queries over the public marts that every agent's report uses."""

from __future__ import annotations

from agent_scoring.reports import Connection, rows

SCORE_BUCKETS = [0, 1, 2, 3, 4, 5]


def sources(con: Connection, agent: str) -> list[str]:
    return [
        r["source_file"]
        for r in rows(
            con,
            "select distinct source_file from item_scores where agent = ? order by 1",
            [agent],
        )
    ]


def rounds(con: Connection, agent: str, source_file: str, track: str = "all") -> list[dict]:
    """Round figures in round order, then the set as a last row labelled '세트'."""
    per_round = rows(
        con,
        """
        select round_label as label, item_count, scored_count, error_count, empty_count,
               llm_count, heuristic_count, intent_score, accuracy_score, stability_score,
               timed_count, mean_response_time_sec, speed_points, item_speed_points_mean,
               speed_rubric
        from round_scores
        where agent = ? and source_file = ? and track = ?
        order by round_room nulls last, round_repeat nulls last, round_label
        """,
        [agent, source_file, track],
    )
    the_set = rows(
        con,
        """
        select '세트' as label, item_count, error_count, empty_count, llm_count,
               heuristic_count, intent_score, accuracy_score, stability_score,
               mean_response_time_sec, speed_points, item_speed_points_mean,
               consistency_score, speed_rubric
        from set_scores
        where agent = ? and source_file = ? and track = ?
        """,
        [agent, source_file, track],
    )
    return per_round + the_set


def distribution(
    con: Connection, agent: str, source_file: str, column: str, tracks: tuple[str, ...] = ()
) -> list[dict]:
    """Counts of 0-5 buckets of `column` per round and for the set, as display rows."""
    if column not in {"intent_score", "speed_points"}:
        raise ValueError(column)
    track_filter = "and track in (select unnest(?::varchar[]))" if tracks else ""
    params: list = [agent, source_file] + ([list(tracks)] if tracks else [])
    counts = rows(
        con,
        f"""
        select round_label, min(round_room) as room, min(round_repeat) as rep,
               floor({column})::integer as bucket, count(*) as n
        from item_scores
        where agent = ? and source_file = ? {track_filter}
        group by round_label, bucket
        """,
        params,
    )
    order = sorted({(r["room"] or 0, r["rep"] or 0, r["round_label"]) for r in counts})
    labels = [label for _, _, label in order]
    table: dict[str, dict] = {label: {b: 0 for b in SCORE_BUCKETS} | {None: 0} for label in labels}
    for r in counts:
        table[r["round_label"]][r["bucket"]] += r["n"]
    result = [_distribution_row(label, table[label]) for label in labels]
    total = {b: sum(table[label][b] for label in labels) for b in [*SCORE_BUCKETS, None]}
    result.append(_distribution_row("세트", total))
    return result


def _distribution_row(label: str, buckets: dict) -> dict:
    return {
        "label": label,
        "buckets": [buckets[b] for b in SCORE_BUCKETS],
        "missing": buckets[None],
        "total": sum(buckets.values()),
        "text": ", ".join(f"{b}점 {buckets[b]}건" for b in SCORE_BUCKETS if buckets[b]),
    }


def failure_patterns(con: Connection, agent: str, source_file: str, limit: int = 10) -> list[dict]:
    """error/empty items grouped by the shape of their message (digits folded to N)."""
    return rows(
        con,
        """
        with failed as (
            select status, round_label, query_id,
                   coalesce(
                       left(regexp_replace(error_message, '[0-9]+', 'N', 'g'), 80),
                       '(응답 없음: assistantMessage·dataUIList 모두 비어 있음)'
                   ) as pattern
            from item_scores
            where agent = ? and source_file = ? and status in ('error', 'empty')
        )
        select status, pattern, count(*) as n,
               string_agg(distinct round_label, ', ' order by round_label) as rounds,
               string_agg(distinct query_id, ', ' order by query_id) as query_ids
        from failed
        group by status, pattern
        order by n desc, pattern
        limit ?
        """,
        [agent, source_file, limit],
    )


def mismatched_queries(
    con: Connection, agent: str, source_file: str, track: str = "all"
) -> list[dict]:
    """Query IDs whose rounds disagree on pass/fail, with each round's score."""
    return rows(
        con,
        """
        select q.query_id,
               any_value(i.query_text) as query_text,
               any_value(i.track) as item_track,
               string_agg(i.round_label || '=' || coalesce(i.intent_score::integer::varchar,
                          '-') || ' (' || i.status || ')', ', '
                          order by i.round_room, i.round_repeat) as round_scores
        from query_consistency as q
        inner join item_scores as i
            on i.agent = q.agent and i.source_file = q.source_file and i.query_id = q.query_id
        where q.agent = ? and q.source_file = ? and q.track = ? and q.verdict = 'mismatch'
        group by q.query_id
        order by q.query_id
        """,
        [agent, source_file, track],
    )


def score_sources(con: Connection, agent: str, source_file: str) -> dict:
    counts = rows(
        con,
        """
        select score_source, count(*) as n from item_scores
        where agent = ? and source_file = ? group by 1
        """,
        [agent, source_file],
    )
    result = {"llm": 0, "heuristic": 0, "gate": 0, "none": 0}
    result.update({r["score_source"]: r["n"] for r in counts})
    return result


def statuses(con: Connection, agent: str, source_file: str) -> dict:
    counts = rows(
        con,
        "select status, count(*) as n from item_scores where agent = ? and source_file = ? "
        "group by 1",
        [agent, source_file],
    )
    return {r["status"]: r["n"] for r in counts}


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def speed_rubric_text(con: Connection, rubric: str) -> str:
    """The rubric as the seeds write it, e.g. `<=5:5, 5~8:4, …, >20:0`, from speed_bands."""
    bands = rows(
        con,
        "select points, lower_bound_exclusive as lo, upper_bound_inclusive as hi "
        "from speed_bands where speed_rubric = ? order by points desc",
        [rubric],
    )
    parts = []
    for b in bands:
        if b["lo"] is None:
            parts.append(f"<={b['hi']:g}:{b['points']}")
        elif b["hi"] is None:
            parts.append(f">{b['lo']:g}:{b['points']}")
        else:
            parts.append(f"{b['lo']:g}~{b['hi']:g}:{b['points']}")
    return ", ".join(parts)
