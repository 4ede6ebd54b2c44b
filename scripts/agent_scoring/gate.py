"""`score-report check`: the CI gate. Each rule compares one figure of the head run (or of
its change since the base run) with a threshold; the gate passes when every rule holds.

Thresholds come from options and/or a YAML file:

    min_intent: 3.0              # head run's 의도 충족 (set, track 'all') at least this
    max_regressions: 0           # items that passed in the base run and fail in the head run
    max_p90_latency_increase: 20 # percent, per speed rubric, head p90 vs base p90
    alpha: 0.05                  # fail on a significant drop of any run_comparisons metric
    agents:                      # per agent, over the ones above
      resume_agent: {min_intent: 4.0}

`alpha` fails only on a drop that is unlikely to be noise (agent_scoring.significance): a
metric's paired interval wholly below zero, or a McNemar p below the level with more
regressions than improvements. The level is alpha divided by the number of metrics tested
(Bonferroni), so that two runs of an unchanged agent fail the gate at most about alpha of
the time, not once per metric.

Options win over the file. A rule that needs a base run when the head has none (the first
run of a test set) is skipped, never failed: the report says so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path

import yaml

from agent_scoring import history, significance
from agent_scoring.db import Connection

# rule -> (runs column, label); a run figure that must be at least the threshold
MINIMA = {
    "min_intent": ("intent_score", "intent"),
    "min_accuracy": ("accuracy_score", "accuracy"),
    "min_stability": ("stability_score", "stability"),
    "min_consistency": ("consistency_score", "consistency"),
}
MAXIMA = ("max_regressions", "max_p90_latency_increase")
RULES = (*MINIMA, *MAXIMA, "alpha")


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
    head = pair.head
    base_file = pair.base["source_file"] if pair.base else None

    def result(rule: str, value: float | None, status: str, detail: str) -> Result:
        return Result(pair.agent, head["source_file"], base_file, rule, rules[rule], value,
                      status, detail)

    found = []
    for rule, (column, label) in MINIMA.items():
        if rule not in rules:
            continue
        value = head[column]
        if value is None:
            found.append(result(rule, None, "fail", f"{label}: no figure (nothing scored)"))
            continue
        status = "pass" if value >= rules[rule] - 1e-9 else "fail"
        found.append(result(rule, value, status, f"{label} {value:.2f} >= {_figure(rules[rule])}"))
    if "max_regressions" in rules:
        if pair.base is None:
            found.append(result("max_regressions", None, "skip", "no previous run to compare"))
        else:
            regressed = sum(c["change"] == "regressed" for c in history.changes(con, pair))
            status = "pass" if regressed <= rules["max_regressions"] else "fail"
            found.append(result("max_regressions", regressed, status,
                                f"regressed {regressed} <= {_figure(rules['max_regressions'])}"))
    if "max_p90_latency_increase" in rules:
        found.extend(_latency(con, pair, rules["max_p90_latency_increase"], result))
    if "alpha" in rules:
        found.extend(_significant_drops(con, pair, rules["alpha"], result))
    return found


def _significant_drops(con: Connection, pair: history.Pair, alpha: float, result) -> list[Result]:
    if pair.base is None:
        return [result("alpha", None, "skip", "no previous run to compare")]
    rows = significance.comparisons(con, pair)
    if not rows:
        return [result("alpha", None, "skip", "no items in both runs")]
    level = alpha / len(rows)
    found = []
    for row in rows:
        change = significance.judge(row, level)
        status = "fail" if change.verdict == "worse" else "pass"
        p = min(x for x in (change.paired_p, change.mcnemar_p) if x is not None)
        interval = ("no interval (fewer than two queries)" if change.ci_low is None
                    else f"{1 - level:.2%} CI {change.ci_low:+.3f} to {change.ci_high:+.3f}")
        detail = (f"{change.metric} {_signed(change.delta)} ({interval}), "
                  f"regressed {change.regressed} · improved {change.improved}, "
                  f"McNemar p {change.mcnemar_p:.3g}: "
                  f"{'significant drop' if status == 'fail' else 'no significant drop'} "
                  f"at {alpha:g}/{len(rows)}")
        found.append(replace(result("alpha", p, status, detail), test={
            **change.as_dict(), "level": level,
            "ci95_low": row["delta_ci_low"], "ci95_high": row["delta_ci_high"]}))
    return found


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def _figure(value: float) -> str:
    """A threshold as written: 1000000, not 1e+06; 3.5 stays 3.5."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:g}"


def _latency(con: Connection, pair: history.Pair, limit: float, result) -> list[Result]:
    rule = "max_p90_latency_increase"
    if pair.base is None:
        return [result(rule, None, "skip", "no previous run to compare")]
    head = history.latency(con, pair.head["source_file"])
    base = history.latency(con, pair.base["source_file"])
    found = []
    for rubric in ("single", "multi"):
        increase = history.p90_increase(base, head, rubric)
        if increase is None:
            continue
        status = "pass" if increase <= limit + 1e-9 else "fail"
        found.append(result(rule, increase, status,
                            f"{rubric} p90 {base[f'p90_{rubric}_sec']:.3f}s → "
                            f"{head[f'p90_{rubric}_sec']:.3f}s "
                            f"({increase:+.1f}% <= {_figure(limit)}%)"))
    return found or [result(rule, None, "skip", "no timed items in both runs")]


def as_json(results: list[Result]) -> dict:
    failed = sum(r.status == "fail" for r in results)
    return {"result": "fail" if failed else "pass", "failed": failed,
            "rules": [asdict(r) for r in results]}
