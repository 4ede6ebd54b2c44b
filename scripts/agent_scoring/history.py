"""Which runs `score-report compare` and `check` look at (by default each agent's latest run
against its previous run; `--head` picks the run, `--base` the run to compare it with), and
the rows of the reporting models of a pair of runs (report_previous_runs, report_compare_* …).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import PurePath

from agent_scoring.db import Connection, rows

TREND_RUNS = 10


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


def pair_rows(
    con: Connection, pair: Pair, model: str, selected: str, where: str = "", order: str = ""
) -> list[dict]:
    """`select <selected>` of a reporting model of pairs of runs, for a pair with a base:
    the model's rows when the base is the head's previous run (the build compared them),
    else its table macro <model>_between(base, head), the same SQL run now."""
    head, base = pair.head["source_file"], pair.base["source_file"]
    if base == pair.head["previous_source_file"]:
        sql, params = f"{model} where source_file = ? and base_file = ?", [head, base]
    else:
        sql, params = f"{model}_between(?, ?) where true", [base, head]
    return rows(con, f"select {selected} from {sql}" + (f" and {where}" if where else "")
                + (f" order by {order}" if order else ""), params)


def trend(con: Connection, head: dict, limit: int = TREND_RUNS) -> list[dict]:
    """The last `limit` runs of the head's test set, up to the head, oldest first."""
    seq = rows(con, "select run_seq from run_trends where source_file = ?",
               [head["source_file"]])[0]["run_seq"]
    return rows(con, "select * from run_trends where agent = ? and test_set_key = ? "
                "and run_seq between ? and ? order by run_seq",
                [head["agent"], head["test_set_key"], seq - limit + 1, seq])


def stem(source_file: str) -> str:
    return PurePath(source_file).stem
