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

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def parse_verdict(text: str) -> Verdict:
    return validate(extract_json(text))


def extract_json(text: str) -> dict[str, Any]:
    """The verdict object from plain JSON, a fenced block, or the first balanced {...}."""
    stripped = (text or "").strip()
    if not stripped:
        raise VerdictError("the reply is empty")
    candidates = [stripped, *(m.group(1).strip() for m in _FENCE.finditer(stripped))]
    candidates += list(_balanced_objects(stripped))
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    raise VerdictError("no JSON object found in the reply")


def validate(data: dict[str, Any]) -> Verdict:
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise VerdictError(f"missing key(s): {', '.join(missing)}")
    scores = {key: _score(key, data[key]) for key in SCORE_KEYS}
    flags = {key: _flag(key, data[key]) for key in FLAG_KEYS}
    reasoning = data["reasoning"]
    if not isinstance(reasoning, str) or not reasoning.strip():
        raise VerdictError("reasoning must be a non-empty string")
    return Verdict(**scores, **flags, reasoning=reasoning.strip())


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
