"""Is a change between two runs real? The rule over run_comparisons rows (docs/rules.md,
"Is a change real?"), shared by the reports and the CI gate.

A metric changed significantly at level alpha when its paired interval at 1 - alpha lies
wholly on one side of zero, or when the exact McNemar test of its pass/fail flips gives
p < alpha with more flips that way. Each half is a two-sided test at alpha, so a metric
that did not change is called worse by one of them at most about alpha of the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

from agent_scoring import history
from agent_scoring.db import Connection, rows

# run_comparisons.metric -> how reports name it and how its figures are shown
METRICS = {
    "intent": ("의도 충족", False),
    "accuracy": ("정확성", False),
    "consistency": ("일관성", False),
    "stability": ("안정성", False),
    "speed": ("속도 점수(문항 평균)", False),
    "total": ("종합 점수", False),
    "pass_any_round": ("pass@k", True),
    "pass_all_rounds": ("pass^k", True),
}
ALPHA = 0.05
VERDICT_TEXT = {"worse": "유의한 하락", "better": "유의한 상승", "none": "유의하지 않음"}


@dataclass(frozen=True)
class Change:
    metric: str
    label: str
    as_share: bool  # a rate (0-1) shown in percent
    paired_count: int
    base_value: float | None
    head_value: float | None
    delta: float | None
    ci_low: float | None
    ci_high: float | None
    paired_p: float | None  # two-sided p of the paired difference (normal)
    regressed: int
    improved: int
    mcnemar_p: float
    verdict: str  # worse, better or none (at the level it was judged at)

    @property
    def verdict_text(self) -> str:
        return VERDICT_TEXT[self.verdict]

    def as_dict(self) -> dict:
        return {"metric": self.metric, "paired_count": self.paired_count,
                "base_value": self.base_value, "head_value": self.head_value,
                "delta": self.delta, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "paired_p": self.paired_p,
                "regressed": self.regressed, "improved": self.improved,
                "mcnemar_p": self.mcnemar_p, "verdict": self.verdict}


def judge(row: dict, alpha: float = ALPHA) -> Change:
    """A run_comparisons row judged at level alpha (its interval at 1 - alpha)."""
    delta, se = row["delta"], row["delta_se"]
    low = high = paired_p = None
    if delta is not None and se is not None:
        z = NormalDist().inv_cdf(1 - alpha / 2)
        low, high = delta - z * se, delta + z * se
        paired_p = (2 * (1 - NormalDist().cdf(abs(delta) / se)) if se > 0
                    else (1.0 if delta == 0 else 0.0))
    flips_say = row["mcnemar_p"] < alpha
    worse = (high is not None and high < 0) or (flips_say and row["regressed"] > row["improved"])
    better = (low is not None and low > 0) or (flips_say and row["improved"] > row["regressed"])
    label, as_share = METRICS[row["metric"]]
    return Change(row["metric"], label, as_share, row["paired_count"], row["base_value"],
                  row["head_value"], delta, low, high, paired_p, row["regressed"],
                  row["improved"], row["mcnemar_p"],
                  "worse" if worse else "better" if better else "none")


def comparisons(con: Connection, pair: history.Pair) -> list[dict]:
    """The pair's run_comparisons rows in METRICS order: from the mart when the build
    compared this pair, else computed now by the warehouse macro run_comparisons_between
    (the same SQL)."""
    if pair.base is None:
        return []
    head, base = pair.head["source_file"], pair.base["source_file"]
    found = rows(con, "select * from run_comparisons where head_file = ? and base_file = ?",
                 [head, base])
    if not found and pair.head["previous_source_file"] != base:
        found = rows(con, "select * from run_comparisons_between(?, ?)", [base, head])
    order = list(METRICS)
    return sorted(found, key=lambda r: order.index(r["metric"]))


def changes(con: Connection, pair: history.Pair, alpha: float = ALPHA) -> list[Change]:
    return [judge(row, alpha) for row in comparisons(con, pair)]
