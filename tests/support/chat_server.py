"""A local OpenAI-compatible chat server for the judge's tests (pytest-httpserver, threaded
so a slow reply does not block the retry): it plays a script of replies per question."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from agent_scoring.judge.cache import VerdictCache
from agent_scoring.judge.client import ChatClient, ClientConfig
from agent_scoring.judge.inputs import load_answers, load_dataset
from agent_scoring.judge.prompts import PromptLimits
from agent_scoring.judge.providers import OpenAIJudge
from agent_scoring.judge.runner import run
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "judge"
DATASET = FIXTURES / "qa_dataset_mini.json"
ANSWERS = FIXTURES / "answers_mini.jsonl"
# t_multihop_001 carries a chatbot error in the fixture and is never sent to the judge.
JUDGED_IDS = ["t_concept_001", "t_impl_001", "t_unrelated_001", "t_halluc_001"]

Reply = Callable[[], Response]


def verdict(f: int = 4, r: int = 5, c: int = 4, h: bool = False, b: bool = True) -> str:
    return json.dumps(
        {
            "faithfulness": f,
            "relevance": r,
            "completeness": c,
            "hallucination_detected": h,
            "behavior_correct": b,
            "reasoning": "검색 문서에 근거한 답변입니다.",
        },
        ensure_ascii=False,
    )


def ok(content: str, usage: bool = True) -> Reply:
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "HCX-007",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage:
        body["usage"] = {"prompt_tokens": 2000, "completion_tokens": 150, "total_tokens": 2150}
    return lambda: Response(
        json.dumps(body, ensure_ascii=False), 200, content_type="application/json"
    )


def status(code: int, headers: dict[str, str] | None = None, message: str = "busy") -> Reply:
    body = json.dumps({"error": {"message": message}})
    return lambda: Response(body, code, headers=headers, content_type="application/json")


def slow(seconds: float, then: Reply) -> Reply:
    def reply() -> Response:
        time.sleep(seconds)
        return then()

    return reply


class ChatScript:
    """Replies per question id (from the user prompt); the last reply repeats."""

    def __init__(self) -> None:
        self.replies: dict[str, list[Reply]] = {}
        self.calls: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()

    def on(self, qid: str, *replies: Reply) -> None:
        self.replies[qid] = list(replies)

    @property
    def total_calls(self) -> int:
        return sum(len(calls) for calls in self.calls.values())

    def handle(self, request: Request) -> Response:
        body = request.get_json()
        match = (
            re.search(r"질문 ID: (\S+)", body["messages"][1]["content"])
            if len(body["messages"]) > 1
            else None
        )
        qid = match.group(1) if match else "*"
        with self._lock:
            self.calls[qid].append(body)
            self.headers.append(dict(request.headers))
            script = self.replies.get(qid) or self.replies["*"]
            reply = script[min(len(self.calls[qid]), len(script)) - 1]
        return reply()


@pytest.fixture(scope="module")
def server() -> Iterator[HTTPServer]:
    # One server per module: stopping werkzeug waits out its 0.5 s poll interval.
    httpserver = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    httpserver.start()
    yield httpserver
    httpserver.stop()


@pytest.fixture
def script(server: HTTPServer) -> ChatScript:
    server.clear()
    chat = ChatScript()
    chat.on("*", ok(verdict()))
    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(chat.handle)
    return chat


def client_for(
    server: HTTPServer, sleeps: list[float] | None = None, **overrides: Any
) -> ChatClient:
    settings: dict[str, Any] = {
        "base_url": server.url_for("/v1"),
        "model": "HCX-007",
        "api_key": "test-key",
        "timeout_s": 2.0,
        "max_retries": 2,
        "backoff_s": 0.01,
        **overrides,
    }
    recorder = sleeps.append if sleeps is not None else (lambda s: None)
    return ChatClient(ClientConfig(**settings), sleep=recorder)


def judge_all(
    server: HTTPServer,
    cache: VerdictCache | None = None,
    verdict_retries: int = 2,
    concurrency: int = 4,
    answers: Path = ANSWERS,
    **client: Any,
):
    dataset = load_dataset(DATASET)
    judge = OpenAIJudge(client_for(server, **client), verdict_retries=verdict_retries)
    return run(
        dataset,
        load_answers(answers),
        judge,
        answers_name=answers.name,
        limits=PromptLimits(),
        cache=cache,
        concurrency=concurrency,
    )


def by_id(judged: list) -> dict[str, Any]:
    return {item.question["id"]: item for item in judged}


