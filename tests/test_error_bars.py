"""Error bars that mean what they say (issue: "Is it real?"), on synthetic runs whose true
scores are known (support/simulation.py), built and judged by the real models and gate:

- 400 runs, each of a new draw of 130 queries × 2 rounds: every figure's 95% interval in
  set_scores covers its population value in 93-97% of them;
- `check --alpha 0.05` on two runs of the same agent and test set (400 pairs) fails in at
  most 7%; on a run whose 의도 충족 really dropped by 0.5 points (100 pairs), in at least 90%.

One warehouse of 900 runs (234,000 rows), built once.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from agent_scoring import gate, history
from support.simulation import draw_queries, drop_for, truth, write_run
from support.warehouse import WITHOUT_DATA_TESTS, Warehouse, all_rows, build

TRIALS = 400
DROP_TRIALS = 100
SEED = 20261124


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> Warehouse:
    work = tmp_path_factory.mktemp("simulation")
    inputs = work / "input"
    inputs.mkdir()
    rng = random.Random(SEED)
    for trial in range(TRIALS):
        tests = draw_queries(rng, f"t{trial:03d}")
        day = datetime(2026, 1, 1) + timedelta(days=trial)
        write_run(inputs / f"plan_agent_sim_{trial:03d}_a.csv", tests, day, rng)
        write_run(inputs / f"plan_agent_sim_{trial:03d}_b.csv", tests,
                  day + timedelta(hours=1), rng)
        if trial < DROP_TRIALS:
            write_run(inputs / f"plan_agent_sim_{trial:03d}_d.csv", tests,
                      day + timedelta(hours=2), rng, drop=drop_for(0.5))
    # the intervals are the subject: the data tests run on builds of the samples
    return build(inputs, work, extra=["--exclude", "tag:rag", *WITHOUT_DATA_TESTS])


@pytest.fixture(scope="module")
def first_runs(simulated) -> list[dict]:
    with simulated.connect() as con:
        return all_rows(con, "select * from set_scores where track = 'all' "
                             "and source_file like 'plan_agent_sim_%_a.csv' order by 1, 2")


def test_the_drawn_runs_are_as_planned(first_runs):
    assert len(first_runs) == TRIALS
    assert {r["item_count"] for r in first_runs} == {260}
    # the synthetic truth is what the runs average to (not an interval's check)
    for figure, value in truth().items():
        mean = sum(r[figure] for r in first_runs) / TRIALS
        assert mean == pytest.approx(value, rel=0.01), figure


@pytest.mark.parametrize("figure", list(truth()))
def test_95_percent_intervals_cover_the_truth_in_93_to_97_percent_of_runs(first_runs, figure):
    value = truth()[figure]
    covered = sum(r[f"{figure}_ci_low"] <= value <= r[f"{figure}_ci_high"] for r in first_runs)
    assert 0.93 <= covered / TRIALS <= 0.97, f"{figure}: {covered} of {TRIALS}"


def gate_fails(con, head: str) -> bool:
    pair = history.select_pairs(con, (), None, head)[0]
    assert pair.base is not None
    return any(r.status == "fail" for r in gate.evaluate(con, pair, {"alpha": 0.05}))


def test_the_gate_at_alpha_5_percent_passes_two_runs_of_the_same_agent(simulated):
    with simulated.connect() as con:
        failed = sum(gate_fails(con, f"plan_agent_sim_{t:03d}_b.csv") for t in range(TRIALS))
    assert failed / TRIALS <= 0.07, f"failed {failed} of {TRIALS}"


def test_the_gate_at_alpha_5_percent_fails_a_real_drop_of_half_a_point(simulated):
    with simulated.connect() as con:
        failed = sum(gate_fails(con, f"plan_agent_sim_{t:03d}_d.csv")
                     for t in range(DROP_TRIALS))
    assert failed / DROP_TRIALS >= 0.90, f"failed {failed} of {DROP_TRIALS}"
