"""Judge prompts: the seed's system prompt verbatim, every dataset field in the user prompt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from agent_scoring.judge.cache import VerdictCache, cache_key
from agent_scoring.judge.inputs import Answer, Document, load_answers, load_dataset
from agent_scoring.judge.prompts import (
    PROMPT_VERSION,
    TRUNCATION_MARK,
    PromptLimits,
    render_system,
    render_user,
)
from agent_scoring.judge.verdict import Verdict

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "003_9f74f2ae6e18c93f.txt"
FIXTURES = Path(__file__).parent / "fixtures" / "judge"


@pytest.fixture(scope="module")
def dataset():
    return load_dataset(FIXTURES / "qa_dataset_mini.json")


@pytest.fixture(scope="module")
def answers():
    return load_answers(FIXTURES / "answers_mini.jsonl")


@pytest.mark.skipif(not SEED.exists(), reason="seed 003 not present")
def test_the_system_prompt_is_the_seed_appendix_verbatim():
    appendix = SEED.read_text(encoding="utf-8").split("## 부록: Judge 프롬프트 전문")[1]
    seed_prompt = re.search(r"### 시스템 프롬프트\n```\n(.*?)\n```", appendix, re.S).group(1)
    assert render_system() == seed_prompt


def test_the_user_prompt_carries_every_field_of_the_question(dataset):
    question = next(q for q in dataset.questions if q["id"] == "t_multihop_001")
    text = render_user(
        question, Answer("t_multihop_001", "RNN은 순차적으로…"), dataset, PromptLimits()
    )
    for expected in (
        "t_multihop_001",
        question["question"],
        "edge_case / multi_hop (여러 문서 종합 필요)",
        "multi_doc_synthesis",
        "검색 문서 필요 여부(should_have_context): 예",
        "최소 필요 문서 수(min_docs_required): 2",
        "rnn, transformer",
        "기울기 소실, attention, 병렬",
        "자료 유형(doc_type)=없음, 과정(course)=NLP",
        "requires_multi_doc=예; cross_course=아니오; reasoning_type=comparative",
        "difficulty=hard; requires_reasoning=예; coverage=NLP; added_in_version=2.0.0",
        "검색된 문서가 없습니다.",
        "RNN은 순차적으로…",
    ):
        assert expected in text, expected


def test_documents_are_cut_to_the_configured_count_and_length(dataset, answers):
    question = dataset.questions[0]
    text = render_user(
        question, answers["t_concept_001"], dataset, PromptLimits(max_docs=2, max_doc_chars=50)
    )
    assert "총 3개 중 2개를 표시합니다 (문서당 최대 50자)" in text
    assert "### 문서 2" in text and "### 문서 3" not in text
    assert "course=Deep Learning; doc_type=lecture_transcript" in text
    first = text.split("### 문서 1")[1].split("### 문서 2")[0]
    assert TRUNCATION_MARK in first
    assert "가" * 60 not in first


def test_zero_limits_show_every_document_in_full(dataset, answers):
    text = render_user(
        dataset.questions[0],
        answers["t_concept_001"],
        dataset,
        PromptLimits(max_docs=0, max_doc_chars=0),
    )
    assert "### 문서 3" in text and "가" * 900 in text and TRUNCATION_MARK not in text


def test_a_count_without_document_texts_is_said_so(dataset):
    answer = Answer("t_concept_001", "답", retrieved_docs_count=15)
    text = render_user(dataset.questions[0], answer, dataset, PromptLimits())
    assert "검색된 문서 15개의 내용이 전달되지 않았습니다." in text


def test_document_metadata_reaches_the_judge(dataset):
    doc = Document("본문", {"course": "level2_cv", "doc_type": "slack_qa", "page": 3})
    answer = Answer("t_concept_001", "답", documents=(doc,), retrieved_docs_count=1)
    text = render_user(dataset.questions[0], answer, dataset, PromptLimits())
    assert "course=level2_cv; doc_type=slack_qa; page=3" in text


def test_the_prompt_version_is_part_of_the_cache_key():
    assert cache_key("HCX-007", PROMPT_VERSION, "s", "u") != cache_key("HCX-007", "other", "s", "u")
    assert cache_key("HCX-007", PROMPT_VERSION, "s", "u") != cache_key(
        "HCX-005", PROMPT_VERSION, "s", "u"
    )
    assert cache_key("m", "v", "ab", "c") != cache_key("m", "v", "a", "bc")


def test_the_cache_stores_and_returns_a_verdict_by_key(tmp_path):
    verdict = Verdict(4, 4, 4, False, True, "근거")
    key = cache_key("HCX-007", PROMPT_VERSION, "s", "u")
    with VerdictCache(tmp_path / "c.duckdb") as cache:
        assert cache.get(key) is None
        cache.put(key, "HCX-007", PROMPT_VERSION, verdict)
    with VerdictCache(tmp_path / "c.duckdb") as cache:
        assert cache.get(key) == verdict
