"""The offline demo judge: deterministic verdicts from the dataset's expectations."""

from __future__ import annotations

from agent_scoring.judge.inputs import Answer, Document
from agent_scoring.judge.keyword import keyword_verdict

IN_DOMAIN = {
    "id": "q1",
    "category": "in_domain",
    "subcategory": "concept",
    "question": "BN이란?",
    "expected_topics": ["batch normalization"],
    "ground_truth": {"answer_keywords": ["평균", "분산", "internal covariate shift"]},
}


def ood(behavior: str) -> dict:
    return {
        "id": "q2",
        "category": "out_of_domain",
        "subcategory": "x",
        "question": "?",
        "ground_truth": {"answer_keywords": [], "expected_behavior": behavior},
    }


GROUNDED = (Document("미니배치 평균과 분산으로 정규화해 internal covariate shift를 줄인다."),)
FULL_ANSWER = (
    "Batch Normalization은 미니배치의 평균과 분산으로 입력을 정규화해 "
    "Internal Covariate Shift를 줄이고 학습을 안정시킵니다."
)


def test_a_grounded_answer_with_every_keyword_scores_full_marks():
    v = keyword_verdict(IN_DOMAIN, Answer("q1", FULL_ANSWER, GROUNDED, 1))
    assert (v.faithfulness, v.relevance, v.completeness) == (5, 5, 5)
    assert v.behavior_correct and not v.hallucination_detected
    assert v.reasoning.startswith("[오프라인 키워드 판정·데모]")


def test_keywords_match_ignoring_case_and_spaces():
    text = FULL_ANSWER.replace("Internal Covariate Shift", "internalcovariate shift")
    answer = Answer("q1", text, GROUNDED, 1)
    assert keyword_verdict(IN_DOMAIN, answer).completeness == 5


def test_a_substantive_in_domain_answer_without_documents_is_flagged_as_hallucination():
    v = keyword_verdict(IN_DOMAIN, Answer("q1", FULL_ANSWER))
    assert v.hallucination_detected and v.faithfulness == 1


def test_declining_an_in_domain_question_fails_it():
    v = keyword_verdict(IN_DOMAIN, Answer("q1", "죄송합니다. 해당 질문에는 답변드리기 어렵습니다."))
    assert not v.behavior_correct and v.completeness == 1 and v.relevance == 1


def test_a_polite_decline_satisfies_politely_decline():
    decline = "죄송합니다. 교육 과정과 관련이 없는 질문이라 답변드리기 어렵습니다."
    v = keyword_verdict(ood("politely_decline"), Answer("q2", decline))
    assert v.behavior_correct


def test_a_decline_does_not_satisfy_ask_clarification_but_asking_back_does():
    decline = Answer("q2", "죄송합니다. 답변드리기 어렵습니다.")
    ask = Answer("q2", "어떤 부분을 말씀하시는지 조금 더 자세히 알려주시면 도와드릴게요.")
    assert not keyword_verdict(ood("ask_clarification"), decline).behavior_correct
    assert keyword_verdict(ood("ask_clarification"), ask).behavior_correct


def test_an_invented_answer_to_a_no_info_question_is_a_hallucination():
    invented = Answer(
        "q2",
        "20기 CV 마스터는 김철수 마스터이며 2025년부터 Object Detection "
        "강의를 맡고 있고, 강의는 총 12주로 구성되어 매주 두 번 진행됩니다.",
    )
    v = keyword_verdict(ood("acknowledge_no_info"), invented)
    assert v.hallucination_detected and not v.behavior_correct


def test_admitting_missing_information_satisfies_acknowledge_no_info():
    v = keyword_verdict(
        ood("acknowledge_no_info"), Answer("q2", "해당 기수의 정보는 자료에서 찾을 수 없습니다.")
    )
    assert v.behavior_correct and not v.hallucination_detected


def test_the_same_input_always_gets_the_same_verdict():
    answer = Answer("q1", FULL_ANSWER, GROUNDED, 1)
    assert keyword_verdict(IN_DOMAIN, answer) == keyword_verdict(IN_DOMAIN, answer)
