"""Queries over the public marts that every agent's report uses.

Each query runs once for all the files being rendered and returns their rows by file."""

from __future__ import annotations

from agent_scoring.reports import IN_FILES, ByFile, Connection, rows, rows_by_file

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


def rounds(con: Connection, agent: str, source_files: list[str], track: str = "all") -> ByFile:
    """Per file: round figures in round order, then the set as a last row labelled '세트'."""
    per_round = rows_by_file(
        con,
        f"""
        select source_file, round_label as label, item_count, scored_count, error_count,
               empty_count, llm_count, heuristic_count, intent_score, accuracy_score,
               stability_score, timed_count, mean_response_time_sec, speed_points,
               item_speed_points_mean, speed_rubric
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
               consistency_score, speed_rubric
        from set_scores
        where agent = ? and source_file {IN_FILES} and track = ?
        """,
        [agent, source_files, track],
    )
    return {f: per_round[f] + the_set[f] for f in source_files}


def bucket_counts(con: Connection, agent: str, source_files: list[str], column: str) -> ByFile:
    """Item counts per track, round and 0-5 bucket of `column`; `distribution` sums them."""
    if column not in {"intent_score", "speed_points"}:
        raise ValueError(column)
    return rows_by_file(
        con,
        f"""
        select source_file, track, round_label, min(round_room) as room,
               min(round_repeat) as rep, floor({column})::integer as bucket, count(*) as n
        from item_scores
        where agent = ? and source_file {IN_FILES}
        group by source_file, track, round_label, bucket
        """,
        [agent, source_files],
    )


def distribution(counts: list[dict], tracks: tuple[str, ...] = ()) -> list[dict]:
    """One file's 0-5 bucket counts (of `bucket_counts`, only `tracks` if given) per round
    and for the set, as display rows."""
    merged = _merge_tracks([r for r in counts if not tracks or r["track"] in tracks])
    order = sorted({(r["room"] or 0, r["rep"] or 0, r["round_label"]) for r in merged})
    labels = [label for _, _, label in order]
    table: dict[str, dict] = {label: {b: 0 for b in SCORE_BUCKETS} | {None: 0} for label in labels}
    for r in merged:
        table[r["round_label"]][r["bucket"]] += r["n"]
    result = [_distribution_row(label, table[label]) for label in labels]
    total = {b: sum(table[label][b] for label in labels) for b in [*SCORE_BUCKETS, None]}
    result.append(_distribution_row("세트", total))
    return result


def _merge_tracks(counts: list[dict]) -> list[dict]:
    """Per (round, bucket): summed n and SQL-style min (nulls ignored) of room and repeat, as
    a query grouped by round_label and bucket alone would give."""
    merged: dict[tuple, dict] = {}
    for r in counts:
        key = (r["round_label"], r["bucket"])
        if key not in merged:
            merged[key] = {k: r[k] for k in ("round_label", "bucket", "room", "rep", "n")}
            continue
        m = merged[key]
        m["n"] += r["n"]
        m["room"] = _min(m["room"], r["room"])
        m["rep"] = _min(m["rep"], r["rep"])
    return list(merged.values())


def _min(a: int | None, b: int | None) -> int | None:
    if a is None or b is None:
        return b if a is None else a
    return min(a, b)


def _distribution_row(label: str, buckets: dict) -> dict:
    return {
        "label": label,
        "buckets": [buckets[b] for b in SCORE_BUCKETS],
        "missing": buckets[None],
        "total": sum(buckets.values()),
        "text": ", ".join(f"{b}점 {buckets[b]}건" for b in SCORE_BUCKETS if buckets[b]),
    }


def failure_patterns(
    con: Connection, agent: str, source_files: list[str], limit: int = 10
) -> ByFile:
    """Per file: error/empty items grouped by the shape of their message (digits folded to
    N), the `limit` most frequent."""
    # status last breaks ties between an error and an empty group of the same pattern.
    return rows_by_file(
        con,
        f"""
        with failed as (
            select source_file, status, round_label, query_id,
                   coalesce(
                       left(regexp_replace(error_message, '[0-9]+', 'N', 'g'), 80),
                       '(응답 없음: assistantMessage·dataUIList 모두 비어 있음)'
                   ) as pattern
            from item_scores
            where agent = ? and source_file {IN_FILES} and status in ('error', 'empty')
        )
        select source_file, status, pattern, count(*) as n,
               string_agg(distinct round_label, ', ' order by round_label) as rounds,
               string_agg(distinct query_id, ', ' order by query_id) as query_ids
        from failed
        group by source_file, status, pattern
        qualify row_number() over (
            partition by source_file order by n desc, pattern, status) <= ?
        order by n desc, pattern, status
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
        select q.source_file, q.query_id,
               arg_min(i.query_text, i.record_no) filter (where i.query_text is not null)
                   as query_text,
               arg_min(i.track, i.record_no) filter (where i.track is not null) as item_track,
               string_agg(i.round_label || '=' || coalesce(i.intent_score::integer::varchar,
                          '-') || ' (' || i.status || ')', ', '
                          order by i.round_room, i.round_repeat) as round_scores
        from query_consistency as q
        inner join item_scores as i
            on i.agent = q.agent and i.source_file = q.source_file and i.query_id = q.query_id
        where q.agent = ? and q.source_file {IN_FILES} and q.track = ? and q.verdict = 'mismatch'
        group by q.source_file, q.query_id
        order by q.query_id
        """,
        [agent, source_files, track],
    )


def score_sources(con: Connection, agent: str, source_files: list[str]) -> dict[str, dict]:
    counts = _counts_by(con, agent, source_files, "score_source")
    return {f: {"llm": 0, "heuristic": 0, "gate": 0, "none": 0} | counts[f] for f in source_files}


def statuses(con: Connection, agent: str, source_files: list[str]) -> dict[str, dict]:
    counts = _counts_by(con, agent, source_files, "status")
    return {f: counts[f] for f in source_files}


def _counts_by(
    con: Connection, agent: str, source_files: list[str], column: str
) -> dict[str, dict]:
    """Per file: item count by value of `column` (a trusted column name)."""
    found = rows_by_file(
        con,
        f"""
        select source_file, {column} as value, count(*) as n from item_scores
        where agent = ? and source_file {IN_FILES} group by all
        """,
        [agent, source_files],
    )
    return {f: {r["value"]: r["n"] for r in found[f]} for f in source_files}


def first_by_file(found: ByFile, source_files: list[str], default: dict) -> dict[str, dict]:
    """Per file: its first row, or `default` for a file without rows."""
    return {f: found[f][0] if found[f] else dict(default) for f in source_files}


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
