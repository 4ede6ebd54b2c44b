"""`score-report check`, the CI gate (docs/history.md): each rule compares a figure of the head
run (runs) or of its change since the base run (report_previous_runs, report_compare_latency,
report_run_comparisons) with a threshold; a rule that needs a base run is skipped without one.
`alpha` is judged here, at the level the gate is given (docs/rules.md, "Is a change real?"):
alpha / the metrics tested (Bonferroni), from each metric's delta, standard error and McNemar p.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import NormalDist

import yaml

from agent_scoring import history
from agent_scoring.db import Connection

# rule -> (runs column, label); a run figure that must be at least the threshold
MINIMA = {
    "min_intent": ("intent_score", "intent"),
    "min_accuracy": ("accuracy_score", "accuracy"),
    "min_stability": ("stability_score", "stability"),
    "min_consistency": ("consistency_score", "consistency"),
}
RULES = (*MINIMA, "max_regressions", "max_p90_latency_increase", "alpha")


class ThresholdError(Exception):
    """The thresholds cannot be read; the message names the file and the key."""


@dataclass(frozen=True)
class Result:
    agent: str
    head_file: str
    base_file: str | None
    rule: str
    threshold: float
    value: float | None
    status: str  # pass, fail or skip
    detail: str
    # the alpha rule: the metric's interval and p-values, and the level it was judged at
    test: dict | None = None


def load_thresholds(path: Path | None) -> dict:
    """{'': global rules, agent: its rules} from a thresholds file (or {} without one)."""
    if path is None:
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ThresholdError(f"{path}: cannot read thresholds ({exc})") from exc
    if not isinstance(data, dict):
        raise ThresholdError(f"{path}: expected a mapping of rules, e.g. `min_intent: 3.0`")
    agents = data.pop("agents", {}) or {}
    result = {"": _rules(path, data)}
    for agent, rules in agents.items():
        result[agent] = _rules(path, rules or {}, f"agents.{agent}.")
    return result


def _rules(path: Path, data: dict, prefix: str = "") -> dict[str, float]:
    rules = {}
    for key, value in data.items():
        name = str(key).replace("-", "_")
        if name not in RULES:
            raise ThresholdError(
                f"{path}: unknown rule {prefix}{key}; known: {', '.join(RULES)}"
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ThresholdError(f"{path}: {prefix}{key} must be a number, not {value!r}")
        if name == "alpha" and not 0 < value < 1:
            raise ThresholdError(f"{path}: {prefix}{key} must be between 0 and 1, not {value!r}")
        rules[name] = float(value)
    return rules


def rules_for(agent: str, from_file: dict, from_options: dict[str, float]) -> dict[str, float]:
    return {**from_file.get("", {}), **from_file.get(agent, {}), **from_options}


def evaluate(con: Connection, pair: history.Pair, rules: dict[str, float]) -> list[Result]:
    def result(rule: str, value, status: str, detail: str, test: dict | None = None) -> Result:
        return Result(pair.agent, pair.head["source_file"],
                      pair.base["source_file"] if pair.base else None, rule, rules[rule],
                      value, status, detail, test)

    found = []
    for rule, (column, label) in MINIMA.items():
        if rule not in rules:
            continue
        value = pair.head[column]
        if value is None:
            found.append(result(rule, None, "fail", f"{label}: no figure (nothing scored)"))
            continue
        status = "pass" if value >= rules[rule] - 1e-9 else "fail"
        found.append(result(rule, value, status, f"{label} {value:.2f} >= {_figure(rules[rule])}"))
    checks = {"max_regressions": _regressions, "max_p90_latency_increase": _latency,
              "alpha": _significant_drops}
    for rule, check in checks.items():
        if rule not in rules:
            continue
        if pair.base is None:
            found.append(result(rule, None, "skip", "no previous run to compare"))
        else:
            found.extend(check(con, pair, rules[rule], result))
    return found


def _regressions(con: Connection, pair: history.Pair, limit: float, result) -> list[Result]:
    regressed = history.pair_rows(con, pair, "report_previous_runs", "regressed")[0]["regressed"]
    return [result("max_regressions", regressed, "pass" if regressed <= limit else "fail",
                   f"regressed {regressed} <= {_figure(limit)}")]


def _latency(con: Connection, pair: history.Pair, limit: float, result) -> list[Result]:
    rule = "max_p90_latency_increase"
    found = [
        result(rule, r["p90_increase_pct"],
               "pass" if r["p90_increase_pct"] <= limit + 1e-9 else "fail",
               f"{r['speed_rubric']} p90 {r['base_p90_sec']:.3f}s → {r['head_p90_sec']:.3f}s "
               f"({r['p90_increase_pct']:+.1f}% <= {_figure(limit)}%)")
        for r in history.pair_rows(con, pair, "report_compare_latency", "*",
                                   "p90_increase_pct is not null", "rubric_order")
    ]
    return found or [result(rule, None, "skip", "no timed items in both runs")]


def _significant_drops(con: Connection, pair: history.Pair, alpha: float, result) -> list[Result]:
    compared = history.pair_rows(con, pair, "report_run_comparisons", "*", order="metric_order")
    if not compared:
        return [result("alpha", None, "skip", "no items in both runs")]
    level = alpha / len(compared)
    found = []
    for row in compared:
        test = judged(row, level)
        status = "fail" if test["verdict"] == "worse" else "pass"
        p = min(x for x in (test["paired_p"], test["mcnemar_p"]) if x is not None)
        interval = ("no interval (fewer than two queries)" if test["ci_low"] is None
                    else f"{1 - level:.2%} CI {test['ci_low']:+.3f} to {test['ci_high']:+.3f}")
        delta = "-" if row["delta"] is None else f"{row['delta']:+.3f}"
        detail = (f"{row['metric']} {delta} ({interval}), "
                  f"regressed {row['regressed']} · improved {row['improved']}, "
                  f"McNemar p {row['mcnemar_p']:.3g}: "
                  f"{'significant drop' if status == 'fail' else 'no significant drop'} "
                  f"at {alpha:g}/{len(compared)}")
        found.append(result("alpha", p, status, detail, test))
    return found


def judged(row: dict, level: float) -> dict:
    """A report_run_comparisons row judged at `level`: its interval at 1 - level, the
    two-sided p of its paired difference (normal), and worse, better or none."""
    delta, se = row["delta"], row["delta_se"]
    low = high = paired_p = None
    if delta is not None and se is not None:
        z = NormalDist().inv_cdf(1 - level / 2)
        low, high = delta - z * se, delta + z * se
        paired_p = (2 * (1 - NormalDist().cdf(abs(delta) / se)) if se > 0
                    else (1.0 if delta == 0 else 0.0))
    flips_say = row["mcnemar_p"] < level
    worse = (high is not None and high < 0) or (flips_say and row["regressed"] > row["improved"])
    better = (low is not None and low > 0) or (flips_say and row["improved"] > row["regressed"])
    return {**{k: row[k] for k in ("metric", "paired_count", "base_value", "head_value")},
            "delta": delta, "ci_low": low, "ci_high": high, "paired_p": paired_p,
            **{k: row[k] for k in ("regressed", "improved", "mcnemar_p")},
            "verdict": "worse" if worse else "better" if better else "none", "level": level,
            "ci95_low": row["delta_ci_low"], "ci95_high": row["delta_ci_high"]}


def _figure(value: float) -> str:
    """A threshold as written: 1000000, not 1e+06; 3.5 stays 3.5."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:g}"


def as_json(results: list[Result]) -> dict:
    failed = sum(r.status == "fail" for r in results)
    return {"result": "fail" if failed else "pass", "failed": failed,
            "rules": [asdict(r) for r in results]}
