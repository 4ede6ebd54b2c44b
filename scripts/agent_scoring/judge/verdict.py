"""Taking the judge's JSON verdict out of its reply, strictly.

A verdict that is not exactly right is rejected with a reason; the caller asks the judge again
with that reason instead of guessing, so a wrong score never slips into the averages.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from agent_scoring.judge.text import clean


class VerdictError(ValueError):
    """The reply holds no valid verdict; the message says what is wrong, for the judge."""


@dataclass(frozen=True)
class Verdict:
    faithfulness: int
    relevance: int
    completeness: int
    hallucination_detected: bool
    behavior_correct: bool
    reasoning: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


SCORE_KEYS = ("faithfulness", "relevance", "completeness")
FLAG_KEYS = ("hallucination_detected", "behavior_correct")
REQUIRED_KEYS = (*SCORE_KEYS, *FLAG_KEYS, "reasoning")

# Reasoning models (vLLM/Qwen/DeepSeek style) think aloud before the answer, drafts included.
_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_UNCLOSED_START = re.compile(r"^\s*<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSING = re.compile(r"</(?:think|thinking|reasoning)>", re.IGNORECASE)

# The verdict as a JSON schema, sent as response_format where the server takes it.
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "json_schema",
    "json_schema": {
        "name": "rag_judge_verdict",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {
                **{key: {"type": "integer", "minimum": 1, "maximum": 5} for key in SCORE_KEYS},
                **{key: {"type": "boolean"} for key in FLAG_KEYS},
                "reasoning": {"type": "string"},
            },
            "required": list(REQUIRED_KEYS),
            "additionalProperties": False,
        },
    },
}


def parse_verdict(text: str) -> Verdict:
    """The final verdict of a reply: reasoning blocks are set aside, then the last object
    that is a valid verdict wins (a model may draft one and correct it)."""
    candidates = json_objects(final_answer(text))
    for candidate in reversed(candidates):
        try:
            return validate(candidate)
        except VerdictError:
            continue
    if candidates:
        validate(candidates[-1])  # raises with the reason of the last one
    raise VerdictError("no JSON object found in the reply")


def final_answer(text: str) -> str:
    """The reply without its reasoning: <think>…</think> blocks removed; an unclosed block
    at the start (a cut-off reply) leaves nothing but what follows its last closing tag."""
    answer = _REASONING.sub("", text or "")
    if _UNCLOSED_START.match(answer):
        closings = list(_CLOSING.finditer(answer))
        answer = answer[closings[-1].end():] if closings else ""
    answer = answer.strip()
    if not answer:
        raise VerdictError(
            "the reply holds only reasoning, no final answer" if (text or "").strip()
            else "the reply is empty"
        )
    return answer


def extract_json(text: str) -> dict[str, Any]:
    """The last JSON object of a reply (plain, fenced or inside text); see parse_verdict."""
    found = json_objects(final_answer(text))
    if not found:
        raise VerdictError("no JSON object found in the reply")
    return found[-1]


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in the text (plain, fenced or between words), in the
    order they appear."""
    found = []
    for candidate in _balanced_objects(text):
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def validate(data: dict[str, Any]) -> Verdict:
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise VerdictError(f"missing key(s): {', '.join(missing)}")
    scores = {key: _score(key, data[key]) for key in SCORE_KEYS}
    flags = {key: _flag(key, data[key]) for key in FLAG_KEYS}
    reasoning = data["reasoning"]
    if not isinstance(reasoning, str) or not reasoning.strip():
        raise VerdictError("reasoning must be a non-empty string")
    # a JSON escape such as \ud83d decodes to a lone surrogate, which nothing can store
    return Verdict(**scores, **flags, reasoning=clean(reasoning.strip()))


def _score(key: str, value: Any) -> int:
    # bool is an int in Python; `true` as a score is a malformed verdict, not 1.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise VerdictError(f"{key} must be an integer from 1 to 5, got {json.dumps(value)}")
    if not math.isfinite(value) or value != int(value) or not 1 <= value <= 5:
        raise VerdictError(f"{key} must be an integer from 1 to 5, got {json.dumps(value)}")
    return int(value)


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise VerdictError(f"{key} must be true or false, got {json.dumps(value)}")
    return value


def _balanced_objects(text: str) -> Iterator[str]:
    """Each top-level {...} span in order, skipping braces inside JSON strings."""
    start = text.find("{")
    while start != -1:
        depth = 0
        in_string = escaped = False
        end = -1
        for index in range(start, len(text)):
            char = text[index]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    end = index
                    break
        if end == -1:
            # Unbalanced from here: a later "{" may still open a complete object.
            start = text.find("{", start + 1)
            continue
        yield text[start : end + 1]
        start = text.find("{", end + 1)
