"""Judging every question of a dataset: cache first, then the judge with bounded concurrency.

The run can end early three ways, and each keeps every verdict that arrived (the cache has
them too): a fatal error (a refused key: every request would fail the same way), the same
failure N times in a row (the server is down or rejects every request: asking the rest
would only wait for more of it), or `interrupt` being set (Ctrl-C). Workers are daemon
threads, so an interrupted run exits at once instead of waiting for replies in flight.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent_scoring.judge.cache import VerdictCache, cache_key
from agent_scoring.judge.client import Usage
from agent_scoring.judge.inputs import Answer, Dataset
from agent_scoring.judge.prompts import PROMPT_VERSION, PromptLimits, render
from agent_scoring.judge.providers import FatalJudgeError, Judge, Outcome

NOT_JUDGED = "not judged"  # the error of a question the run stopped before
POLL_S = 0.1


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
    not_judged: int = 0
    requests: int = 0
    http_retries: int = 0
    invalid_replies: int = 0
    reasks: int = 0
    usage: Usage = field(default_factory=Usage)
    stopped: str | None = None  # why the run ended before every question was asked

    def count(self, outcome: Outcome) -> None:
        self.requests += outcome.requests
        self.http_retries += outcome.http_retries
        self.invalid_replies += outcome.invalid_replies
        self.reasks += outcome.reasks
        self.usage.add(outcome.usage)
        if outcome.cached:
            self.cached += 1
        elif outcome.verdict is not None:
            self.judged += 1
        else:
            self.judge_errors += 1

    @property
    def unjudged(self) -> int:
        """Questions with no verdict for a reason of the run, not of the chatbot: judge
        errors, missing answers and questions the run stopped before."""
        return self.judge_errors + self.missing_answers + self.not_judged

    def to_dict(self) -> dict[str, Any]:
        return {
            "questions": self.questions,
            "judged": self.judged,
            "cached": self.cached,
            "judge_errors": self.judge_errors,
            "answer_errors": self.answer_errors,
            "missing_answers": self.missing_answers,
            "not_judged": self.not_judged,
            "requests": self.requests,
            "http_retries": self.http_retries,
            "invalid_replies": self.invalid_replies,
            "reasks": self.reasks,
            "stopped": self.stopped,
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


def failure_kind(error: str) -> str:
    """An error with its numbers folded, so "HTTP 503 … 5 attempts" failures count as one."""
    return re.sub(r"\d+", "N", error)


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
    stop_after_failures: int = 5,
    interrupt: threading.Event | None = None,
) -> tuple[list[Judged], RunStats]:
    """Results in dataset order. A FatalJudgeError stops the run and propagates; verdicts
    already cached stay cached, so a rerun picks up where it stopped. After
    `stop_after_failures` identical judge failures in a row (0: never) or once `interrupt` is
    set, the questions not yet asked get the error "not judged: <why>"."""
    stats = RunStats(questions=len(dataset.questions))
    outcomes: dict[str, Outcome] = {}
    pending: queue.Queue = queue.Queue()
    waiting = 0
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
                pending.put((qid, question, answer, prompt, key))
                waiting += 1
                continue
        progress(1)

    halt = threading.Event()
    done: queue.Queue = queue.Queue()
    streak_lock = threading.Lock()
    streak: list = [None, 0]  # failure kind, consecutive count - in completion order

    def note_failure_streak(outcome: Outcome) -> None:
        # Decided by the worker before it takes the next question, so a stop after N
        # identical failures asks the judge exactly N times when one worker runs.
        if not stop_after_failures:
            return
        with streak_lock:
            if outcome.verdict is not None:
                streak[:] = [None, 0]
                return
            kind = failure_kind(outcome.error or "")
            streak[:] = [kind, streak[1] + 1 if streak[0] == kind else 1]
            if streak[1] >= stop_after_failures and not halt.is_set():
                stats.stopped = (f"stopped after {streak[1]} identical failures in a row: "
                                 f"{outcome.error}")
                halt.set()

    def work() -> None:
        while not halt.is_set():
            try:
                qid, question, answer, prompt, key = pending.get_nowait()
            except queue.Empty:
                return
            try:
                outcome = judge.judge(question, answer, prompt)
            except FatalJudgeError as exc:
                halt.set()
                done.put((qid, key, exc))
                return
            except Exception as exc:  # noqa: BLE001 - one question's crash is its error
                outcome = Outcome(error=f"judge: {type(exc).__name__}: {exc}")
            note_failure_streak(outcome)
            done.put((qid, key, outcome))

    workers = [threading.Thread(target=work, daemon=True, name=f"judge-{n}")
               for n in range(min(max(1, concurrency), waiting))]
    for worker in workers:
        worker.start()

    received = 0
    # Results are handled here, on the main thread: the cache connection is not shared
    # across threads, and each verdict is stored as soon as it arrives. After a stop, the
    # answers of questions already in flight are still recorded: they were asked.
    while received < waiting:
        if interrupt is not None and interrupt.is_set():
            stats.stopped = "interrupted (Ctrl-C)"
            break
        try:
            qid, key, outcome = done.get(timeout=POLL_S)
        except queue.Empty:
            if not any(w.is_alive() for w in workers) and done.empty():
                break  # every worker ended (after a halt) and nothing more will come
            continue
        received += 1
        if isinstance(outcome, FatalJudgeError):
            raise outcome
        outcomes[qid] = outcome
        stats.count(outcome)
        if cache is not None and outcome.verdict is not None:
            cache.put(key, judge.model, PROMPT_VERSION, outcome.verdict)
        progress(1)
    halt.set()

    judged = []
    for question in dataset.questions:
        outcome = outcomes.get(question["id"])
        if outcome is None:
            stats.not_judged += 1
            outcome = Outcome(error=f"{NOT_JUDGED}: {stats.stopped or 'the run ended'}")
        judged.append(Judged(question=question, answer=answers.get(question["id"]),
                             outcome=outcome))
    return judged, stats
