"""The warehouse's plan-agent figures, shaped like pyscore's, and the comparison of the two."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb

from agent_bench.pyscore import NO_ROUND

ROUND_FIGURES_SQL = """
with checks as (
    select source_file, round_label, sum(check_count) as check_count,
           sum(check_passed) as check_passed
    from item_scores
    where agent = 'plan_agent'
    group by all
)

select
    rounds.source_file,
    rounds.round_label,
    rounds.item_count,
    rounds.scored_count,
    rounds.error_count,
    rounds.empty_count,
    rounds.llm_count,
    rounds.heuristic_count,
    checks.check_count,
    checks.check_passed,
    rounds.intent_score,
    rounds.stability_score,
    rounds.timed_count,
    rounds.mean_response_time_sec,
    rounds.speed_points,
    rounds.item_speed_points_mean
from round_scores as rounds
left join checks
    on checks.source_file = rounds.source_file
    and checks.round_label is not distinct from rounds.round_label
where rounds.agent = 'plan_agent' and rounds.track = 'all'
"""

CONSISTENCY_SQL = """
select source_file, eligible_queries, all_pass, all_fail, mismatch, not_eligible,
       consistency_score
from consistency
where agent = 'plan_agent' and track = 'all'
"""


def _records(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    cursor = con.execute(sql)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def warehouse_figures(db_path: Path) -> dict[str, Any]:
    """{source_file: {"rounds": {label: figures}, "consistency": figures}} from the marts."""
    files: dict[str, Any] = {}
    with duckdb.connect(str(db_path), read_only=True) as con:
        for record in _records(con, ROUND_FIGURES_SQL):
            source = record.pop("source_file")
            label = record.pop("round_label")
            entry = files.setdefault(source, {"rounds": {}, "consistency": None})
            entry["rounds"][label if label is not None else NO_ROUND] = record
        for record in _records(con, CONSISTENCY_SQL):
            source = record.pop("source_file")
            files.setdefault(source, {"rounds": {}, "consistency": None})["consistency"] = record
    return files


def _same(left: Any, right: Any) -> bool:
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, float) or isinstance(right, float):
        # sums are added up in a different order: allow rounding noise, nothing more
        return math.isclose(float(left), float(right), rel_tol=1e-9, abs_tol=1e-9)
    return int(left) == int(right)


def compare(python: dict[str, Any], warehouse: dict[str, Any]) -> list[str]:
    """Every figure that differs, as `file round field: python != warehouse`; [] when equal."""
    differences = []
    for source in sorted(set(python) | set(warehouse)):
        if source not in warehouse or source not in python:
            side = "warehouse" if source not in warehouse else "pure Python"
            differences.append(f"{source}: missing from {side}")
            continue
        ours, theirs = python[source], warehouse[source]
        for label in sorted(set(ours["rounds"]) | set(theirs["rounds"])):
            left = ours["rounds"].get(label)
            right = theirs["rounds"].get(label)
            if left is None or right is None:
                differences.append(f"{source} {label}: round only in one of them")
                continue
            for name, value in left.items():
                if not _same(value, right.get(name)):
                    differences.append(f"{source} {label} {name}: {value} != {right.get(name)}")
        left_c, right_c = ours["consistency"], theirs["consistency"]
        if right_c is None and left_c["eligible_queries"] + left_c["not_eligible"] == 0:
            continue  # no Query IDs at all: the mart has no row to compare with
        right_c = right_c or {}
        for name, value in left_c.items():
            if not _same(value, right_c.get(name)):
                differences.append(f"{source} consistency {name}: {value} != {right_c.get(name)}")
    return differences
