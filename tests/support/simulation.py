"""Synthetic plan-agent runs whose true scores are known, for the error-bar simulation.

A test set is 130 queries (the team's plan runs: ~130 queries × 2 rounds). Each query is
drawn from a population of three kinds (easy, middling, hard); each round of it draws its
의도 충족 and 정확성 (the platform's per-metric LLM scores) from its kind's 0-5
distribution, an error (all scores 0) with a small probability, and a response time from
its kind's log-normal. Every figure's population value follows from these by arithmetic
(`truth()`), so a 95% interval must cover it in about 95% of the runs.
"""

from __future__ import annotations

import csv
import json
import math
import random
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from statistics import NormalDist

QUERIES = 130
ROUNDS = 2
ERROR_RATE = 0.03
# (share of queries, P(score = 0..5), median seconds)
KINDS = (
    (0.5, (0.01, 0.02, 0.04, 0.13, 0.30, 0.50), 6.0),
    (0.3, (0.08, 0.10, 0.17, 0.25, 0.22, 0.18), 8.0),
    (0.2, (0.40, 0.25, 0.17, 0.09, 0.05, 0.04), 11.0),
)
TIME_SIGMA = 0.45
SPEED_BOUNDS = (5, 8, 10, 15, 20)  # the single rubric (dbt_project.yml vars.speed_rubrics)
PASS_SCORE = 3
HEADER = ["Run ID", "Item ID", "Ordinal", "Query ID", "질의", "기대결과", "카테고리", "방/반복",
          "실행시각", "응답", "오류", "Logic 결과", "Logic 사유", "LLM 상태", "LLM 모델",
          "LLM 점수", "LLM 코멘트", "Raw JSON", "의도충족 점수", "정확성 점수"]


def _passing(dist: tuple[float, ...]) -> float:
    """P(a round passes): no error and a score at the pass line or above."""
    return (1 - ERROR_RATE) * sum(dist[PASS_SCORE:])


def drop_for(points: float) -> float:
    """The chance of taking one point off a score of 1 or more that lowers the expected
    의도 충족 by `points`."""
    above_zero = (1 - ERROR_RATE) * sum(share * (1 - dist[0]) for share, dist, _ in KINDS)
    return points / above_zero


def truth(drop: float = 0.0) -> dict[str, float]:
    """The population value of every figure the intervals are for (of an undropped run:
    consistency and the pass rates are not worked out under a drop)."""
    def band_mean(median: float) -> float:
        cdf = [NormalDist(math.log(median), TIME_SIGMA).cdf(math.log(b)) for b in SPEED_BOUNDS]
        # P(band = 5) = cdf[0]; P(band = 5 - i) = cdf[i] - cdf[i - 1]; slower than all: 0
        return 5 * cdf[0] + sum((5 - i) * (cdf[i] - cdf[i - 1]) for i in range(1, 5))

    def score_mean(dist: tuple[float, ...], drop: float) -> float:
        mean = sum(k * p for k, p in enumerate(dist))
        return (1 - ERROR_RATE) * (mean - drop * (1 - dist[0]))

    return {
        "intent_score": sum(s * score_mean(d, drop) for s, d, _ in KINDS),
        "accuracy_score": sum(s * score_mean(d, 0.0) for s, d, _ in KINDS),
        "stability_score": 5 * (1 - ERROR_RATE),
        "mean_response_time_sec": sum(s * m * math.exp(TIME_SIGMA ** 2 / 2) for s, _, m in KINDS),
        "item_speed_points_mean": sum(s * band_mean(m) for s, _, m in KINDS),
        "consistency_score": 5 * sum(s * (_passing(d) ** 2 + (1 - _passing(d)) ** 2)
                                     for s, d, _ in KINDS),
        "pass_any_round_rate": sum(s * (1 - (1 - _passing(d)) ** ROUNDS) for s, d, _ in KINDS),
        "pass_all_rounds_rate": sum(s * _passing(d) ** ROUNDS for s, d, _ in KINDS),
    }


@dataclass(frozen=True)
class QuerySet:
    name: str
    kinds: tuple[int, ...]  # the kind of each query


def draw_queries(rng: random.Random, name: str) -> QuerySet:
    weights = [share for share, _, _ in KINDS]
    return QuerySet(name, tuple(rng.choices(range(len(KINDS)), weights, k=QUERIES)))


def _score(rng: random.Random, dist: tuple[float, ...], drop: float) -> int:
    score = rng.choices(range(6), dist)[0]
    if drop and score > 0 and rng.random() < drop:
        score -= 1
    return score


def write_run(path: Path, tests: QuerySet, started: datetime, rng: random.Random,
              drop: float = 0.0) -> Path:
    """One run of the test set: every query in every round, 의도 충족 lowered by `drop`."""
    run_id = str(uuid.UUID(int=rng.getrandbits(128)))
    rows = []
    for round_no in range(1, ROUNDS + 1):
        for q, kind in enumerate(tests.kinds):
            _, dist, median = KINDS[kind]
            failed = rng.random() < ERROR_RATE
            intent, accuracy = _score(rng, dist, drop), _score(rng, dist, 0.0)
            seconds = round(math.exp(rng.gauss(math.log(median), TIME_SIGMA)), 3)
            reply = {"assistantMessage": f"{tests.name} 질의 {q}에 대한 답변",
                     "dataUIList": [], "responseTimeSec": seconds}
            rows.append({
                "Run ID": run_id,
                "Item ID": str(uuid.UUID(int=rng.getrandbits(128))),
                "Ordinal": str(len(rows) + 1),
                "Query ID": f"{tests.name}-q{q:03d}",
                "질의": f"{tests.name} 질의 {q}",
                "기대결과": "", "카테고리": "Happy path",
                "방/반복": f"{round_no}/1",
                "실행시각": (started + timedelta(seconds=len(rows))).isoformat(),
                "응답": reply["assistantMessage"],
                "오류": "HTTP 503: upstream busy" if failed else "",
                "Logic 결과": "", "Logic 사유": "", "LLM 상태": "", "LLM 모델": "",
                "LLM 점수": "", "LLM 코멘트": "",
                "Raw JSON": json.dumps(reply, ensure_ascii=False),
                "의도충족 점수": str(intent), "정확성 점수": str(accuracy),
            })
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, HEADER)
        writer.writeheader()
        writer.writerows(rows)
    return path
