"""Judging every question of a dataset: cache first, then the judge with bounded concurrency."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from agent_scoring.judge.cache import VerdictCache, cache_key
from agent_scoring.judge.client import Usage
from agent_scoring.judge.inputs import Answer, Dataset
from agent_scoring.judge.prompts import PROMPT_VERSION, Prompt, PromptLimits, render
from agent_scoring.judge.providers import FatalJudgeError, Judge, Outcome


@dataclass(frozen=True)
class Judged:
    """One dataset question with its answer (None when the answers file lacks it)."""

    question: dict[str, Any]
    answer: Answer | None
    outcome: Outcome


@dataclass
class RunStats:
    questions: int = 0
    judged: int = 0
    cached: int = 0
    judge_errors: int = 0
    answer_errors: int = 0
    missing_answers: int = 0
    requests: int = 0
    http_retries: int = 0
    invalid_replies: int = 0
    usage: Usage = field(default_factory=Usage)

    def count(self, outcome: Outcome) -> None:
        self.requests += outcome.requests
        self.http_retries += outcome.http_retries
        self.invalid_replies += outcome.invalid_replies
        self.usage.add(outcome.usage)
        if outcome.cached:
            self.cached += 1
        elif outcome.verdict is not None:
            self.judged += 1
        else:
            self.judge_errors += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "questions": self.questions,
            "judged": self.judged,
            "cached": self.cached,
            "judge_errors": self.judge_errors,
            "answer_errors": self.answer_errors,
            "missing_answers": self.missing_answers,
            "requests": self.requests,
            "http_retries": self.http_retries,
            "invalid_replies": self.invalid_replies,
            "usage": (
                {
                    "prompt_tokens": self.usage.prompt_tokens,
                    "completion_tokens": self.usage.completion_tokens,
                    "total_tokens": self.usage.total_tokens,
                }
                if self.usage.reported
                else None
            ),
        }


def run(
    dataset: Dataset,
    answers: dict[str, Answer],
    judge: Judge,
    *,
    answers_name: str,
    limits: PromptLimits,
    cache: VerdictCache | None = None,
    concurrency: int = 4,
    progress: Callable[[int], None] = lambda n: None,
) -> tuple[list[Judged], RunStats]:
    """Results in dataset order. A FatalJudgeError from a worker stops the run and
    propagates; verdicts already cached stay cached, so a rerun picks up where it stopped."""
    stats = RunStats(questions=len(dataset.questions))
    outcomes: dict[str, Outcome] = {}
    pending: list[tuple[str, dict[str, Any], Answer, Prompt, str]] = []
    for question in dataset.questions:
        qid = question["id"]
        answer = answers.get(qid)
        if answer is None:
            stats.missing_answers += 1
            outcomes[qid] = Outcome(error=f"no answer for this question in {answers_name}")
        elif answer.error:
            # The chatbot failed; there is nothing to judge, and that is its error, not ours.
            stats.answer_errors += 1
            outcomes[qid] = Outcome(error=answer.error)
        else:
            prompt = render(question, answer, dataset, limits)
            key = cache_key(judge.model, PROMPT_VERSION, prompt.system, prompt.user)
            verdict = cache.get(key) if cache is not None else None
            if verdict is not None:
                outcomes[qid] = Outcome(verdict=verdict, cached=True)
                stats.count(outcomes[qid])
            else:
                pending.append((qid, question, answer, prompt, key))
                continue
        progress(1)

    stop = threading.Event()

    def judge_one(question: dict[str, Any], answer: Answer, prompt: Prompt) -> Outcome | None:
        # Once the endpoint has refused us for good, the queued questions are not sent.
        if stop.is_set():
            return None
        try:
            return judge.judge(question, answer, prompt)
        except FatalJudgeError:
            stop.set()
            raise

    executor = ThreadPoolExecutor(max_workers=max(1, concurrency))
    try:
        futures: dict[Future[Outcome | None], tuple[str, str]] = {
            executor.submit(judge_one, question, answer, prompt): (qid, key)
            for qid, question, answer, prompt, key in pending
        }
        # Results are handled here, on the main thread: the cache connection is not shared
        # across threads, and each verdict is stored as soon as it arrives.
        for future in as_completed(futures):
            qid, key = futures[future]
            outcome = future.result()
            if outcome is None:  # skipped after a fatal error that is raised below
                continue
            outcomes[qid] = outcome
            stats.count(outcome)
            if cache is not None and outcome.verdict is not None:
                cache.put(key, judge.model, PROMPT_VERSION, outcome.verdict)
            progress(1)
    finally:
        # On a fatal error or Ctrl-C, do not start the questions still waiting.
        executor.shutdown(wait=True, cancel_futures=True)

    judged = [
        Judged(question=q, answer=answers.get(q["id"]), outcome=outcomes[q["id"]])
        for q in dataset.questions
    ]
    return judged, stats
