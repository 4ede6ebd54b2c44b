"""Reading the dataset and the chatbot's answers file, with one-line errors."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_scoring.judge.text import clean_all


class InputError(Exception):
    """A problem in an input file that the user fixes in that file."""


@dataclass(frozen=True)
class Document:
    content: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """One line of the answers file: what the chatbot said and what it retrieved."""

    question_id: str
    answer: str
    documents: tuple[Document, ...] = ()
    retrieved_docs_count: int = 0
    retrieval_time_ms: float | None = None
    filter_applied: bool = False
    error: str | None = None


@dataclass(frozen=True)
class Dataset:
    path: Path
    version: str | None
    questions: tuple[dict[str, Any], ...]
    # {"in_domain": {"concept": "개념/정의 질문", ...}, ...}: labels shown to the judge.
    categories: dict[str, dict[str, str]]


def load_dataset(path: Path) -> Dataset:
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise InputError(f'{path}: not a Q&A dataset (no "questions" list)')
    seen: set[str] = set()
    for number, question in enumerate(data["questions"], start=1):
        if not isinstance(question, dict):
            raise InputError(f"{path}: question {number} is not an object")
        for key in ("id", "question", "category"):
            if not question.get(key):
                raise InputError(f'{path}: question {number} has no "{key}"')
        if question["id"] in seen:
            raise InputError(f"{path}: question id {question['id']} appears twice")
        seen.add(question["id"])
    version = data.get("version")
    categories = data.get("categories") if isinstance(data.get("categories"), dict) else {}
    return Dataset(
        path=path,
        version=str(version) if version else None,
        questions=tuple(data["questions"]),
        categories=categories,
    )


def load_answers(path: Path) -> dict[str, Answer]:
    """question_id → Answer; a repeated id is an error because which one to judge is unclear."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: answers file not found") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8; save the answers file as UTF-8") from None
    answers: dict[str, Answer] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = clean_all(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number} is not valid JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise InputError(f"{path}: line {number} is not a JSON object")
        answer = _answer(record, f"{path}: line {number}")
        if answer.question_id in answers:
            raise InputError(
                f"{path}: line {number}: question_id {answer.question_id} already answered "
                f"on line {first_line[answer.question_id]}"
            )
        answers[answer.question_id] = answer
        first_line[answer.question_id] = number
    return answers


def _answer(record: dict[str, Any], where: str) -> Answer:
    question_id = record.get("question_id")
    if not isinstance(question_id, str) or not question_id.strip():
        raise InputError(f"{where}: question_id is missing")
    # "retrieved_docs" is the documented name; LangChain-style exports say "documents".
    raw_docs = record.get("retrieved_docs", record.get("documents")) or []
    if not isinstance(raw_docs, list):
        raise InputError(f"{where}: retrieved_docs must be a list")
    documents = tuple(_document(doc, where) for doc in raw_docs)
    count = record.get("retrieved_docs_count")
    error = record.get("error")
    return Answer(
        question_id=question_id.strip(),
        answer=str(record.get("answer") or ""),
        documents=documents,
        retrieved_docs_count=int(count) if isinstance(count, int) else len(documents),
        retrieval_time_ms=_number(record.get("retrieval_time_ms")),
        filter_applied=bool(record.get("filter_applied", False)),
        error=str(error).strip() if error not in (None, "") and str(error).strip() else None,
    )


def _document(doc: Any, where: str) -> Document:
    if isinstance(doc, str):
        return Document(content=doc)
    if not isinstance(doc, dict):
        raise InputError(f"{where}: a retrieved document is neither text nor an object")
    content = doc.get("content", doc.get("page_content", ""))
    metadata = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    return Document(content=str(content or ""), metadata=metadata)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    # NaN/inf would be written as bare NaN, which is not JSON and breaks the warehouse read.
    return number if math.isfinite(number) else None


def _read_json(path: Path) -> Any:
    try:
        return clean_all(json.loads(path.read_text(encoding="utf-8-sig")))
    except FileNotFoundError:
        raise InputError(f"{path}: dataset file not found") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8; save the dataset as UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
