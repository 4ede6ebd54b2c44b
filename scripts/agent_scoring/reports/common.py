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
GENERIC_TEMPLATE = "generic_report.md.j2"
REQUIRED_TABLES = ("agents", "item_scores", "round_scores", "set_scores", "consistency",
                   "query_consistency", "check_results", "speed_bands")
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
    return [
        r["source_file"]
        for r in rows(
            con,
            "select distinct source_file from item_scores where agent = ? order by 1",
            [agent],
        )
    ]


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
    return _counts_by(con, agent, source_files, "status")


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


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def speed_bands(con: Connection, rubric: str) -> list[dict]:
    """The rubric's bands from the speed_bands mart, most points first."""
    return rows(
        con,
        "select points, lower_bound_exclusive as lo, upper_bound_inclusive as hi "
        "from speed_bands where speed_rubric = ? order by points desc",
        [rubric],
    )


def band_labels(con: Connection, rubric: str) -> list[str]:
    """Each band of the rubric as a chart names it, most points first: `5점 ≤5초`."""
    found = []
    for b in speed_bands(con, rubric):
        if b["lo"] is None:
            found.append(f"{b['points']}점 ≤{b['hi']:g}초")
        elif b["hi"] is None:
            found.append(f"{b['points']}점 >{b['lo']:g}초")
        else:
            found.append(f"{b['points']}점 {b['lo']:g}~{b['hi']:g}초")
    return found


def speed_rubric_text(con: Connection, rubric: str) -> str:
    """The rubric as the seeds write it, e.g. `<=5:5, 5~8:4, …, >20:0`, from speed_bands."""
    parts = []
    for b in speed_bands(con, rubric):
        if b["lo"] is None:
            parts.append(f"<={b['hi']:g}:{b['points']}")
        elif b["hi"] is None:
            parts.append(f">{b['lo']:g}:{b['points']}")
        else:
            parts.append(f"{b['lo']:g}~{b['hi']:g}:{b['points']}")
    return ", ".join(parts)


def most_failed_checks(
    con: Connection, agent: str, source_files: list[str], limit: int = 10
) -> ByFile:
    """Per file: the `limit` (check, expected value) pairs that failed most."""
    return rows_by_file(
        con,
        f"""
        select source_file, check_kind, expected_value,
               count_if(not passed) as failed, count(passed) as evaluated
        from check_results
        where agent = ? and source_file {IN_FILES} and item_status not in ('error', 'empty')
        group by source_file, check_kind, expected_value
        having count_if(not passed) > 0
        qualify row_number() over (
            partition by source_file order by failed desc, check_kind, expected_value) <= ?
        order by failed desc, check_kind, expected_value
        """,
        [agent, source_files, limit],
    )


def failed_checks_by_kind(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, check_kind, count_if(not passed) as failed,
               count(passed) as evaluated,
               count_if(not passed) / nullif(count(passed), 0) as fail_rate,
               count_if(value_elsewhere_in_item) as value_elsewhere
        from check_results
        where agent = ? and source_file {IN_FILES} and item_status not in ('error', 'empty')
        group by source_file, check_kind
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


def query_counts(con: Connection, agent: str, source_files: list[str]) -> dict[str, int]:
    found = rows_by_file(
        con,
        f"""
        select source_file, count(distinct query_id) as n from item_scores
        where agent = ? and source_file {IN_FILES} group by source_file
        """,
        [agent, source_files],
    )
    return {f: found[f][0]["n"] if found[f] else 0 for f in source_files}


def own_marts(con: Connection, marts: list[str], source_files: list[str]) -> dict[str, list]:
    """Per file: each of the agent's own marts (see the agents mart) with its description
    and its first rows for that file, for the generic report to show as tables."""
    result: dict[str, list] = {f: [] for f in source_files}
    described = {
        r["table_name"]: r["comment"]
        for r in rows(con, "select table_name, comment from duckdb_tables()")
    }
    for mart in marts:
        if mart not in described:
            continue
        columns = [
            r["column_name"]
            for r in rows(
                con,
                "select column_name from duckdb_columns() where table_name = ? "
                "order by column_index",
                [mart],
            )
        ]
        if "source_file" not in columns:
            continue
        shown = [c for c in columns if c not in ("agent", "source_file", "file_fingerprint")]
        found = rows_by_file(
            con,
            f"""
            select source_file, {", ".join(f'"{c}"' for c in shown)},
                   count(*) over (partition by source_file) as shown_rows__total
            from "{mart}"
            where source_file {IN_FILES}
            qualify row_number() over (partition by source_file
                                       order by {'record_no' if 'record_no' in shown else '1'})
                    <= ?
            order by all
            """,
            [source_files, SHOWN_MART_ROWS],
        )
        for f in source_files:
            table = found[f]
            total = table[0]["shown_rows__total"] if table else 0
            result[f].append({
                "name": mart,
                "description": described[mart],
                "columns": shown,
                "rows": [[r[c] for c in shown] for r in table],
                "hidden": max(0, total - len(table)),
            })
    return result


def previous_runs(con: Connection, source_files: list[str]) -> dict[str, dict | None]:
    """Per file: its previous run (the runs mart) with the headline changes and how many
    items regressed or improved since; None for the first run of a test set."""
    if "runs" not in tables(con):
        return {f: None for f in source_files}
    found = rows_by_file(
        con,
        f"""
        select head.source_file, head.previous_source_file as base_file,
               head.intent_score - base.intent_score as intent_delta,
               head.accuracy_score - base.accuracy_score as accuracy_delta,
               head.consistency_score - base.consistency_score as consistency_delta,
               head.stability_score - base.stability_score as stability_delta,
               head.mean_response_time_sec - base.mean_response_time_sec as latency_delta,
               (select count(*) from item_changes as c where c.head_file = head.source_file
                    and c.base_file = head.previous_source_file and c.change = 'regressed')
                   as regressed,
               (select count(*) from item_changes as c where c.head_file = head.source_file
                    and c.base_file = head.previous_source_file and c.change = 'improved')
                   as improved
        from runs as head
        inner join runs as base on base.source_file = head.previous_source_file
        where head.source_file {IN_FILES}
        """,
        [source_files],
    )
    judged = comparisons_by_file(con, source_files)
    return {f: {**found[f][0], "changes": judged[f]} if found[f] else None for f in source_files}


def comparisons_by_file(con: Connection, source_files: list[str]) -> dict[str, list]:
    """Per file: its run_comparisons rows against its previous run, judged at 95% (none in a
    warehouse built before the mart existed)."""
    if "run_comparisons" not in tables(con):
        return {f: [] for f in source_files}
    found = rows_by_file(
        con,
        f"""
        select c.head_file as source_file, c.*
        from run_comparisons as c
        inner join runs on runs.source_file = c.head_file
            and runs.previous_source_file = c.base_file
        where c.head_file {IN_FILES}
        """,
        [source_files],
    )
    order = list(significance.METRICS)
    return {f: [significance.judge(r) for r in sorted(found[f],
                                                      key=lambda r: order.index(r["metric"]))]
            for f in source_files}


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
    scores = bucket_counts(con, agent, source_files, "intent_score")
    speeds = bucket_counts(con, agent, source_files, "speed_points")
    rubrics = speed_rubrics(con, spec["speed_rubric"])
    checks = spec["has_check_results"]
    per_file = {
        "query_count": query_counts(con, agent, source_files),
        "statuses": statuses(con, agent, source_files),
        "score_sources": score_sources(con, agent, source_files),
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
            "score_buckets": scores[f],
            "speed_buckets": speeds[f],
            "score_distribution": distribution(scores[f]),
            "speed_distribution": distribution(speeds[f]),
            "charts": {
                "scores": charts.score_lines(distribution(scores[f])),
                "speed": charts.band_bars(
                    distribution(speeds[f]),
                    band_labels(con, rubrics[0]["rubric"]) if len(rubrics) == 1 else None),
            },
            "speed_rubrics": rubrics,
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
