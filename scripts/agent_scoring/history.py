"""Run history over the runs, item_changes and run_trends marts: which runs to compare,
what changed between them, and the CI gate's rules.

`score-report compare` and `score-report check` select runs the same way: by default the
latest run of each agent (runs.run_order) against its previous run; `--head` picks the run,
`--base` the run to compare it with (default: its previous run).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import PurePath

from agent_scoring.db import Connection, rows

HEADLINE = [
    ("intent_score", "의도 충족", 2),
    ("accuracy_score", "정확성", 2),
    ("consistency_score", "일관성", 2),
    ("stability_score", "안정성", 2),
    ("mean_response_time_sec", "평균 응답(초)", 3),
    ("item_speed_points_mean", "속도 점수(문항 평균)", 2),
]
CHANGE_ORDER = ("regressed", "improved", "score_down", "score_up", "new", "removed")
TREND_RUNS = 10
SLOWEST_SHOWN = 10


class SelectionError(Exception):
    """The runs asked for cannot be compared as asked (a usage error); the message says why."""


class RunNotFound(SelectionError):
    """A run asked for is not in the warehouse; the message names it."""


@dataclass(frozen=True)
class Pair:
    agent: str
    head: dict
    base: dict | None  # runs row; None: the head run has no previous run


def run(con: Connection, source_file: str) -> dict:
    found = rows(con, "select * from runs where source_file = ?", [source_file])
    if not found:
        raise RunNotFound(
            f"no run {source_file!r} in the warehouse (runs.source_file); "
            "give a file name as score-report lists it"
        )
    return found[0]


def select_pairs(
    con: Connection, agents: tuple[str, ...], base: str | None, head: str | None
) -> list[Pair]:
    """The (head, base) runs to compare, one per agent unless --head names one (in NFC or
    NFD: the loader stores names in NFC)."""
    head, base = (unicodedata.normalize("NFC", name) if name else name for name in (head, base))
    if base and not head:
        raise SelectionError("--base needs --head: which run should be compared with it?")
    if head:
        head_run = run(con, head)
        if agents and head_run["agent"] not in agents:
            raise SelectionError(f"{head} is a run of {head_run['agent']}, not of "
                                 f"{', '.join(agents)}")
        base_file = base or head_run["previous_source_file"]
        base_run = run(con, base_file) if base_file else None
        if base_run is not None and base_run["agent"] != head_run["agent"]:
            raise SelectionError(f"{base} is a run of {base_run['agent']}, {head} of "
                                 f"{head_run['agent']}: compare runs of one agent")
        return [Pair(head_run["agent"], head_run, base_run)]
    latest = rows(con, "select * from runs where is_latest_run order by agent")
    pairs = []
    for head_run in latest:
        if agents and head_run["agent"] not in agents:
            continue
        previous = head_run["previous_source_file"]
        pairs.append(Pair(head_run["agent"], head_run, run(con, previous) if previous else None))
    if agents and not pairs:
        raise RunNotFound(f"no runs of {', '.join(agents)} in the warehouse")
    return pairs


def changes(con: Connection, pair: Pair) -> list[dict]:
    """Every item of the pair with its change: from item_changes when the build compared this
    pair, else computed now by the warehouse macro item_changes_between (the same SQL)."""
    if pair.base is None:
        return []
    head, base = pair.head["source_file"], pair.base["source_file"]
    stored = rows(
        con,
        "select * from item_changes where head_file = ? and base_file = ?",
        [head, base],
    )
    if stored or pair.head["previous_source_file"] == base:
        return stored
    return rows(con, "select * from item_changes_between(?, ?)", [base, head])


def latency(con: Connection, source_file: str) -> dict:
    found = rows(con, "select * from run_trends where source_file = ?", [source_file])
    return found[0] if found else {}


def trend(con: Connection, head: dict, limit: int = TREND_RUNS) -> list[dict]:
    """The last `limit` runs of the head's test set, up to the head, oldest first."""
    head_seq = latency(con, head["source_file"]).get("run_seq")
    found = rows(
        con,
        """
        select * from run_trends
        where agent = ? and test_set_key = ? and run_seq <= ?
        order by run_seq desc
        limit ?
        """,
        [head["agent"], head["test_set_key"], head_seq, limit],
    )
    return list(reversed(found))


def p90_increase(base: dict, head: dict, rubric: str) -> float | None:
    """Percent change of the p90 latency of a rubric's items, None when not measurable."""
    before, after = base.get(f"p90_{rubric}_sec"), head.get(f"p90_{rubric}_sec")
    if before is None or after is None or before <= 0:
        return None
    return (after - before) / before * 100


def stem(source_file: str) -> str:
    return PurePath(source_file).stem
