"""Strict verdict parsing: plain JSON, a fenced block, or the first balanced object."""

from __future__ import annotations

import json

import pytest
from agent_scoring.judge.verdict import VerdictError, extract_json, parse_verdict

VALID = {
    "faithfulness": 4,
    "relevance": 5,
    "completeness": 3,
    "hallucination_detected": False,
    "behavior_correct": True,
    "reasoning": "문서에 근거한 답변입니다.",
}


def reply(**changes: object) -> str:
    return json.dumps({**VALID, **changes}, ensure_ascii=False)


def test_plain_json_is_a_verdict():
    verdict = parse_verdict(reply())
    assert (verdict.faithfulness, verdict.relevance, verdict.completeness) == (4, 5, 3)
    assert verdict.behavior_correct is True and verdict.hallucination_detected is False


def test_a_fenced_json_block_is_taken_from_surrounding_prose():
    text = f"평가는 다음과 같습니다.\n```json\n{reply()}\n```\n감사합니다."
    assert parse_verdict(text).relevance == 5


def test_an_unlabelled_fence_is_accepted():
    assert parse_verdict(f"```\n{reply()}\n```").completeness == 3


def test_the_first_balanced_object_is_taken_when_there_is_no_fence():
    text = f'결과: {reply(reasoning="중괄호 {예시} 포함")} 이상입니다. {{"other": 1}}'
    assert parse_verdict(text).reasoning == "중괄호 {예시} 포함"


def test_an_unbalanced_brace_before_the_object_is_skipped():
    assert parse_verdict(f"점수 {{ 참고 … {reply()}").faithfulness == 4


def test_extra_keys_such_as_a_model_computed_overall_score_are_ignored():
    assert parse_verdict(reply(overall_score=0.8)).faithfulness == 4


def test_an_integral_float_score_counts_as_that_integer():
    assert parse_verdict(reply(faithfulness=4.0)).faithfulness == 4


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"faithfulness": 6}, "faithfulness must be an integer from 1 to 5, got 6"),
        ({"relevance": 0}, "relevance must be an integer from 1 to 5, got 0"),
        ({"completeness": 3.5}, "completeness must be an integer from 1 to 5, got 3.5"),
        ({"completeness": "4"}, 'completeness must be an integer from 1 to 5, got "4"'),
        ({"faithfulness": True}, "faithfulness must be an integer from 1 to 5, got true"),
        ({"hallucination_detected": "false"}, "hallucination_detected must be true or false"),
        ({"behavior_correct": 1}, "behavior_correct must be true or false, got 1"),
        ({"reasoning": ""}, "reasoning must be a non-empty string"),
        ({"reasoning": None}, "reasoning must be a non-empty string"),
    ],
)
def test_a_wrong_value_is_rejected_with_a_reason(changes, reason):
    with pytest.raises(VerdictError, match="^" + reason.replace(".", r"\.")):
        parse_verdict(reply(**changes))


def test_a_missing_key_is_named():
    data = dict(VALID)
    del data["behavior_correct"]
    with pytest.raises(VerdictError, match="missing key\\(s\\): behavior_correct"):
        parse_verdict(json.dumps(data))


@pytest.mark.parametrize(
    "text", ["", "   ", "판단할 수 없습니다.", '{"faithfulness": 4,', "[1, 2]"]
)
def test_a_reply_without_a_json_object_is_rejected(text):
    with pytest.raises(VerdictError):
        extract_json(text)
