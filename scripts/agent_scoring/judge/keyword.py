"""Offline demo judge: deterministic verdicts from the dataset's own expectations.

No network and no model: it checks the answer for the question's answer_keywords and
expected_topics, the retrieved documents for the same keywords, and a few fixed Korean
phrases for declining, asking back and admitting missing information. Good enough to run the
whole pipeline on the bundled sample; never a substitute for the LLM judge, so every report
it writes is flagged as a demo.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from agent_scoring.judge.inputs import Answer
from agent_scoring.judge.prompts import Prompt
from agent_scoring.judge.providers import Outcome
from agent_scoring.judge.verdict import Verdict

DECLINE_PHRASES = (
    "답변드리기어렵",
    "답변드릴수없",
    "도와드리기어렵",
    "범위를벗어",
    "범위밖",
    "관련이없는질문",
    "관련된질문에답변",
    "답변할수없",
    "답하기어렵",
    "도와드릴수없",
    "제공하지못",
    "제공할수없",
)
CLARIFY_PHRASES = (
    "어떤것을말씀",
    "무엇을말씀",
    "구체적으로알려",
    "구체적으로말씀",
    "말씀해주시",
    "알려주시면",
    "어떤부분",
    "무엇을의미",
    "조금더자세히",
    "어떤주제",
)
NO_INFO_PHRASES = (
    "정보가없",
    "찾을수없",
    "확인되지않",
    "확인할수없",
    "자료에없",
    "포함되어있지않",
    "알수없",
    "존재하지않",
)
LIMITATION_PHRASES = (*NO_INFO_PHRASES, "한계", "최신정보", "공식홈페이지", "공식문서", "확인하시")

OOD_BEHAVIORS = {
    "politely_decline": DECLINE_PHRASES,
    "ask_clarification": CLARIFY_PHRASES,
    "acknowledge_no_info": (*NO_INFO_PHRASES, *DECLINE_PHRASES),
    "acknowledge_limitation": LIMITATION_PHRASES,
}
# An answer shorter than this (characters, without spaces) says too little to count as an
# attempt at the question.
SUBSTANTIVE_CHARS = 60


class KeywordJudge:
    provider = "keyword"
    model = "offline-keyword"
    demo = True

    def judge(self, question: dict[str, Any], answer: Answer, prompt: Prompt) -> Outcome:
        return Outcome(verdict=keyword_verdict(question, answer))


def keyword_verdict(question: dict[str, Any], answer: Answer) -> Verdict:
    ground_truth = question.get("ground_truth") or {}
    behavior = ground_truth.get("expected_behavior")
    text = _norm(answer.answer)
    docs = _norm(" ".join(doc.content for doc in answer.documents))
    keywords = [k for k in ground_truth.get("answer_keywords") or [] if _norm(k)]
    topics = [t for t in question.get("expected_topics") or [] if _norm(t)]
    hits = [k for k in keywords if _norm(k) in text]
    topic_hits = [t for t in topics if _norm(t) in text]
    grounded = [k for k in hits if _norm(k) in docs]

    declined = _has(text, DECLINE_PHRASES)
    no_info = _has(text, NO_INFO_PHRASES)
    substantive = len(text) >= SUBSTANTIVE_CHARS and not declined
    coverage = len(hits) / len(keywords) if keywords else None
    topic_coverage = len(topic_hits) / len(topics) if topics else None

    if behavior in OOD_BEHAVIORS:
        correct = _has(text, OOD_BEHAVIORS[behavior])
        # Asked about something that does not exist and answered at length without saying
        # so: the answer invented it.
        hallucinated = behavior == "acknowledge_no_info" and substantive and not no_info
        relevance = completeness = 5 if correct else 2
        faithfulness = 1 if hallucinated else (5 if correct else 3)
    else:
        correct = substantive and (coverage is None or coverage >= 0.5)
        hallucinated = substantive and not answer.documents
        completeness = 1 if not substantive else _points(coverage, 3)
        # Topics are often English tags while answers are Korean prose: either signal counts.
        on_topic = max((s for s in (coverage, topic_coverage) if s is not None), default=None)
        relevance = 1 if declined else _points(on_topic, 4 if substantive else 2)
        if hallucinated:
            faithfulness = 1
        elif not answer.documents or not substantive:
            faithfulness = 2 if substantive else 3
        else:
            faithfulness = _points(len(grounded) / len(hits) if hits else None, 3)

    reasoning = (
        f"[오프라인 키워드 판정·데모] 정답 키워드 {len(hits)}/{len(keywords)}개"
        f"{' (' + ', '.join(hits) + ')' if hits else ''}, 기대 주제 "
        f"{len(topic_hits)}/{len(topics)}개가 답변에 있고, 검색 문서 "
        f"{answer.retrieved_docs_count}개 중 근거 확인 키워드 {len(grounded)}개. "
        f"기대 행동 {behavior or '일반 답변'}: {'충족' if correct else '미충족'}"
        f"{', 문서 근거 없는 구체적 답변(환각 의심)' if hallucinated else ''}."
    )
    return Verdict(
        faithfulness=faithfulness,
        relevance=relevance,
        completeness=completeness,
        hallucination_detected=hallucinated,
        behavior_correct=correct,
        reasoning=reasoning,
    )


def _points(share: float | None, default: int) -> int:
    """A 0..1 share on the 1..5 scale (0 → 1, 1 → 5); the default when there is nothing to
    measure against."""
    if share is None:
        return default
    return 1 + int(4 * share + 0.5)


def _has(text: str, phrases: tuple[str, ...]) -> bool:
    return any(phrase in text for phrase in phrases)


def _norm(text: str) -> str:
    # Same matching as the warehouse's keyword checks: NFC, case-folded, no whitespace.
    return "".join(unicodedata.normalize("NFC", str(text)).casefold().split())
