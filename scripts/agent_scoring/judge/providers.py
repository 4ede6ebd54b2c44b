"""Judges: the OpenAI-compatible LLM judge, and what every judge returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from agent_scoring.judge.client import ChatClient, ChatError, ChatFatalError, Usage
from agent_scoring.judge.inputs import Answer
from agent_scoring.judge.prompts import Prompt
from agent_scoring.judge.verdict import VERDICT_SCHEMA, Verdict, VerdictError, parse_verdict

# Said to the judge after a reply that was not a valid verdict, with the reason appended.
CORRECTION = (
    "직전 응답은 요구한 형식이 아니어서 사용할 수 없습니다. 문제: {reason}.\n"
    "faithfulness, relevance, completeness는 1~5 사이의 정수, hallucination_detected와 "
    "behavior_correct는 true/false, reasoning은 문자열입니다. 다른 설명 없이 지정된 JSON "
    "객체 하나만 다시 응답하세요."
)


@dataclass
class Outcome:
    """A verdict or an error for one question, and what it cost to get it."""

    verdict: Verdict | None = None
    error: str | None = None
    requests: int = 0
    http_retries: int = 0
    invalid_replies: int = 0  # replies that held no valid verdict
    reasks: int = 0  # corrections actually sent (the last invalid reply is not re-asked)
    usage: Usage = field(default_factory=Usage)
    cached: bool = False


class Judge(Protocol):
    provider: str
    model: str
    demo: bool

    def judge(self, question: dict[str, Any], answer: Answer, prompt: Prompt) -> Outcome: ...


class FatalJudgeError(Exception):
    """Every further request would fail the same way; stop the run."""


class OpenAIJudge:
    """A judge behind an OpenAI-compatible chat endpoint (HCX-007 on CLOVA Studio, or any)."""

    provider = "openai"
    demo = False

    def __init__(self, client: ChatClient, verdict_retries: int = 2) -> None:
        self.client = client
        self.model = client.config.model
        self.verdict_retries = verdict_retries

    def judge(self, question: dict[str, Any], answer: Answer, prompt: Prompt) -> Outcome:
        messages = [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ]
        outcome = Outcome()
        reason = ""
        for _ in range(self.verdict_retries + 1):
            try:
                reply = self.client.complete(messages, response_format=VERDICT_SCHEMA)
            except ChatFatalError as exc:
                raise FatalJudgeError(str(exc)) from None
            except ChatError as exc:
                outcome.requests += exc.attempts
                outcome.http_retries += exc.attempts - 1
                outcome.error = f"judge: {exc}"
                return outcome
            outcome.requests += reply.attempts
            outcome.http_retries += reply.retries
            outcome.usage.add(reply.usage)
            try:
                outcome.verdict = parse_verdict(reply.text)
                return outcome
            except VerdictError as exc:
                reason = str(exc)
                outcome.invalid_replies += 1
                if outcome.invalid_replies > self.verdict_retries:
                    break
                outcome.reasks += 1
                # Show the judge its own reply and what was wrong: cheaper and more reliable
                # than starting over with the same prompt.
                messages = [
                    *messages,
                    {"role": "assistant", "content": reply.text},
                    {"role": "user", "content": CORRECTION.format(reason=reason)},
                ]
        outcome.error = (
            f"judge: no valid verdict after {outcome.invalid_replies} replies ({reason})"
        )
        return outcome
