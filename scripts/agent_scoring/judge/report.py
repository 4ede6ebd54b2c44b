"""The judge report, in the schema of the team's `evaluation_report_v2_*.json`.

Top-level and per-result keys, their order and the judge block are those of the real reports
(2025-12-11 layout, which added `pass_rate` and `overall_score`), so the warehouse's RAG models
read this file unchanged. Added top-level keys only: `judge_provider`, `judge_model`, `demo`,
`prompt_version`, `dataset_file`, `answers_file`, `error_questions`, `complete`,
`not_judged_questions`, `stopped`, `judge_stats`.

Scoring is the warehouse rule (SCORING §4), checked against every result of both real
reports: overall = max(0, (f + r + c) / 15 − penalty × hallucination), stored rounded to 3
decimals; in-domain passes at ≥ the pass mark without hallucination, the others on
behavior_correct. The penalty and the pass mark are read from the seed the warehouse scores
with (seeds/rag_scoring_rules.csv), so the verdicts a report stores are the ones `dbt build`
recomputes.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from statistics import mean
from typing import Any

from agent_scoring.judge.runner import Judged, RunStats
from agent_scoring.judge.verdict import Verdict

IN_DOMAIN = "in_domain"
DEFAULT_INPUT_DIR = "docs/test-result"
RULES_SEED = Path("seeds") / "rag_scoring_rules.csv"


class RulesError(Exception):
    """The scoring rule's seed cannot be read (the judge runs outside the project)."""


@dataclass(frozen=True)
class ScoringRules:
    """The thresholds of the warehouse's scoring rule (the seed rag_scoring_rules)."""

    in_domain_pass_min_overall_score: float
    hallucination_penalty: float


def scoring_rules(project: Path) -> ScoringRules:
    """The rule of the project's seeds/rag_scoring_rules.csv (one row), as dbt reads it."""
    path = project / RULES_SEED
    try:
        with path.open(encoding="utf-8", newline="") as file:
            [row] = csv.DictReader(file)
        return ScoringRules(float(row["in_domain_pass_min_overall_score"]),
                            float(row["hallucination_penalty"]))
    except OSError as exc:
        raise RulesError(f"{path}: cannot read the scoring rule ({exc.strerror}); run the "
                         "judge in the agent-scoring project or give --project") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesError(f"{path}: expected one row with in_domain_pass_min_overall_score and "
                         f"hallucination_penalty ({exc})") from None


def overall_score(verdict: Verdict, rules: ScoringRules) -> float:
    total = verdict.faithfulness + verdict.relevance + verdict.completeness
    score = max(0.0, total / 15 - rules.hallucination_penalty * verdict.hallucination_detected)
    # The real reports store 3 decimals (0.933); the report-level mean is over these.
    return round(score, 3)


def passed(category: str, verdict: Verdict, rules: ScoringRules) -> bool:
    if category == IN_DOMAIN:
        return (overall_score(verdict, rules) >= rules.in_domain_pass_min_overall_score
                and not verdict.hallucination_detected)
    return verdict.behavior_correct


def default_input_dir() -> Path:
    return Path(os.environ.get("AGENT_SCORING_INPUT_DIR") or DEFAULT_INPUT_DIR)


def report_tag(dataset_version: str | None, dataset_path: Path) -> str:
    """What follows `evaluation_report_` in the file name: the dataset file's own suffix
    (`qa_dataset_v2.json` → `v2`, as the real reports; `qa_dataset_sample.json` → `sample`),
    else `v<major>` of the dataset version, else the whole stem."""
    stem = dataset_path.stem
    suffix = stem.removeprefix("qa_dataset").lstrip("_-")
    if not suffix:
        match = re.match(r"\s*v?(\d+)(?:\.\d+)*\s*$", dataset_version or "")
        suffix = f"v{match.group(1)}" if match else stem
    return re.sub(r"[^0-9A-Za-z._-]+", "-", suffix)


def result_row(item: Judged, rules: ScoringRules) -> dict[str, Any]:
    question, answer, outcome = item.question, item.answer, item.outcome
    verdict = outcome.verdict
    judge = None
    if verdict is not None:
        judge = {
            "faithfulness": verdict.faithfulness,
            "relevance": verdict.relevance,
            "completeness": verdict.completeness,
            "hallucination_detected": verdict.hallucination_detected,
            "behavior_correct": verdict.behavior_correct,
            "overall_score": overall_score(verdict, rules),
            "reasoning": verdict.reasoning,
        }
    return {
        "question_id": question["id"],
        "question": question["question"],
        "category": question["category"],
        "subcategory": question.get("subcategory"),
        # The full answer: the team's runner cut it to 500 characters, which hides exactly
        # the part a reviewer wants to read when a verdict looks wrong.
        "answer": answer.answer if answer else "",
        "retrieved_docs_count": answer.retrieved_docs_count if answer else 0,
        "retrieval_time_ms": answer.retrieval_time_ms if answer else None,
        "filter_applied": answer.filter_applied if answer else False,
        "passed": verdict is not None and passed(question["category"], verdict, rules),
        "error": None if verdict is not None else outcome.error,
        "judge": judge,
    }


def build_report(
    *,
    dataset_version: str | None,
    started: datetime,
    judged: list[Judged],
    stats: RunStats,
    provider: str,
    model: str,
    demo: bool,
    prompt_version: str,
    dataset_file: str,
    answers_file: str,
    rules: ScoringRules,
) -> dict[str, Any]:
    results = [result_row(item, rules) for item in judged]
    passed_ids = [r["question_id"] for r in results if r["passed"]]
    scored = [r["judge"]["overall_score"] for r in results if r["judge"]]
    return {
        "dataset_version": dataset_version,
        "timestamp": started.isoformat(),
        "total_questions": len(results),
        "passed_questions": len(passed_ids),
        "by_category": _by_category(results),
        "by_subcategory": _by_subcategory(results),
        # Left empty as in the real reports: courses come from the dataset, and the
        # warehouse joins them (one question may cover several courses).
        "by_course": {},
        "results": results,
        "failed_questions": [r["question_id"] for r in results if not r["passed"]],
        "pass_rate": len(passed_ids) / len(results) if results else 0.0,
        # Mean over judged questions only: an error has no score and is not averaged in as
        # zero; it is counted in error_questions and fails.
        "overall_score": mean(scored) if scored else None,
        "judge_provider": provider,
        "judge_model": model,
        "demo": demo,
        "prompt_version": prompt_version,
        "dataset_file": dataset_file,
        "answers_file": answers_file,
        "error_questions": [r["question_id"] for r in results if r["error"]],
        # False when a question has no verdict for a reason of the run (judge error, no
        # answer, the run stopped): the warehouse then never takes it as a complete run.
        "complete": stats.unjudged == 0,
        "not_judged_questions": [
            item.question["id"] for item in judged
            if item.outcome.verdict is None
            and not (item.answer is not None and item.answer.error)
        ],
        "stopped": stats.stopped,
        "judge_stats": stats.to_dict(),
    }


def _by_category(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in results:
        groups.setdefault(row["category"], []).append(row)
    summary = {}
    for category, rows in groups.items():
        scores = [r["judge"]["overall_score"] for r in rows if r["judge"]]
        passed_count = sum(r["passed"] for r in rows)
        summary[category] = {
            "total": len(rows),
            "passed": passed_count,
            # The real reports leave this at 0.0; here it is the mean overall_score.
            "avg_score": mean(scores) if scores else 0.0,
            "pass_rate": passed_count / len(rows),
        }
    return summary


def _by_subcategory(results: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    summary: dict[str, dict[str, int]] = {}
    for row in results:
        entry = summary.setdefault(
            f"{row['category']}/{row['subcategory']}", {"total": 0, "passed": 0}
        )
        entry["total"] += 1
        entry["passed"] += int(row["passed"])
    return summary


def write_report(report: dict[str, Any], out_dir: Path, tag: str, finished: datetime) -> Path:
    """Write atomically: `dbt build` globs `evaluation_report*.json` and must never read half
    a file, so the temporary name does not match that glob."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = finished.strftime("%Y%m%d_%H%M%S")
    target = out_dir / f"evaluation_report_{tag}_{stamp}.json"
    number = 1
    while target.exists():  # two runs in the same second must not overwrite each other
        number += 1
        target = out_dir / f"evaluation_report_{tag}_{stamp}_{number}.json"
    temporary = out_dir / f".{target.name}.tmp"
    temporary.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, target)
    return target
