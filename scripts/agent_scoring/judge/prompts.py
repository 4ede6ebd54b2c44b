"""Rendering the judge prompts from the templates in `agent_scoring/prompts/`.

The system prompt is the seed's appendix verbatim. The user prompt carries every field of a
dataset question and the chatbot's answer; retrieved documents are cut to a budget so one
request stays around 2-3k tokens. Change PROMPT_VERSION whenever a template or the
truncation changes meaning: it is part of the cache key, so old verdicts are not reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from agent_scoring.judge.inputs import Answer, Dataset

PROMPT_VERSION = "rag-judge-2025-12-v1"
DEFAULT_MAX_DOCS = 5
DEFAULT_MAX_DOC_CHARS = 700
TRUNCATION_MARK = " …(이하 생략)"


@dataclass(frozen=True)
class PromptLimits:
    max_docs: int = DEFAULT_MAX_DOCS
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("agent_scoring", "prompts"),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["show"] = show
    return env


def show(value: Any) -> str:
    """A field value as the judge reads it: lists joined, booleans and gaps in words."""
    if value is None or value == "" or value == []:
        return "없음"
    if isinstance(value, bool):
        return "예" if value else "아니오"
    if isinstance(value, (list, tuple)):
        return ", ".join(show(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{key}={show(item)}" for key, item in value.items())
    return str(value)


_ENV = _environment()


def render_system() -> str:
    return _ENV.get_template("judge_system.md.j2").render()


def render_user(
    question: dict[str, Any], answer: Answer, dataset: Dataset, limits: PromptLimits
) -> str:
    ground_truth = question.get("ground_truth") or {}
    category = question.get("category", "")
    subcategory = question.get("subcategory", "")
    # 0 means no limit, for both budgets.
    shown = answer.documents[: limits.max_docs] if limits.max_docs > 0 else answer.documents
    documents = [
        {
            "number": number,
            "metadata": doc.metadata,
            "content": _clip(doc.content, limits.max_doc_chars),
        }
        for number, doc in enumerate(shown, start=1)
    ]
    return _ENV.get_template("judge_user.md.j2").render(
        question=question,
        category=category,
        subcategory=subcategory,
        subcategory_label=(dataset.categories.get(category) or {}).get(subcategory),
        expected_behavior=ground_truth.get("expected_behavior"),
        ground_truth=ground_truth,
        expected_topics=question.get("expected_topics") or [],
        expected_filters=question.get("expected_filters") or {},
        evaluation=question.get("evaluation") or {},
        metadata=question.get("metadata") or {},
        documents=documents,
        documents_total=max(answer.retrieved_docs_count, len(answer.documents)),
        max_doc_chars=limits.max_doc_chars,
        answer=answer.answer,
    )


def render(
    question: dict[str, Any], answer: Answer, dataset: Dataset, limits: PromptLimits
) -> Prompt:
    return Prompt(system=render_system(), user=render_user(question, answer, dataset, limits))


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    if limit <= 0 or len(text) <= limit:
        return text
    return text[:limit].rstrip() + TRUNCATION_MARK
