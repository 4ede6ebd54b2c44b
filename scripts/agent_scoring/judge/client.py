"""OpenAI-compatible chat-completions client on the standard library.

Works with any `/chat/completions` endpoint: OpenAI, vLLM, Ollama, and CLOVA Studio's
OpenAI-compatible API (https://clovastudio.stream.ntruss.com/v1/openai, model HCX-007).
Transient failures (429, 5xx, timeouts, dropped connections) are retried with exponential
backoff, honouring Retry-After; a refused key or a wrong URL stops the whole run, because
every other question would fail the same way.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
FATAL_STATUS = frozenset({401, 403, 404})
# A server asking for a longer pause than this is treated as this long; the run should not
# hang silently for an hour on one header.
RETRY_AFTER_CAP_S = 120.0


class ChatError(Exception):
    """One request failed for good (after retries); recorded against its question."""

    def __init__(self, message: str, attempts: int = 1) -> None:
        super().__init__(message)
        self.attempts = attempts


class ChatFatalError(ChatError):
    """The endpoint refuses every request (bad key, URL or model); the run stops."""


@dataclass(frozen=True)
class ClientConfig:
    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_s: float = 2.0
    backoff_max_s: float = 60.0
    temperature: float | None = 0.0
    seed: int | None = None
    max_tokens: int | None = None

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    reported: bool = False

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.total_tokens += other.total_tokens
        self.reported = self.reported or other.reported


@dataclass
class ChatReply:
    text: str
    attempts: int
    usage: Usage = field(default_factory=Usage)

    @property
    def retries(self) -> int:
        return self.attempts - 1


class ChatClient:
    def __init__(self, config: ClientConfig, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        # Injected so tests can record the backoff delays instead of waiting them out.
        self._sleep = sleep

    def complete(self, messages: list[dict[str, str]]) -> ChatReply:
        body = json.dumps(self._payload(messages), ensure_ascii=False).encode("utf-8")
        attempt = 0
        while True:
            attempt += 1
            try:
                data = self._post(body)
                text = _content(data, self.config.url)
            except _Retryable as exc:
                if attempt > self.config.max_retries:
                    raise ChatError(
                        f"{exc.reason} (gave up after {attempt} attempts)", attempts=attempt
                    ) from None
                self._sleep(self._delay(attempt, exc.retry_after))
                continue
            except ChatError as exc:
                exc.attempts = attempt
                raise
            return ChatReply(text=text, attempts=attempt, usage=_usage(data))

    def _payload(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": self.config.model, "messages": messages}
        # Only send what was set: some compatible servers reject fields they do not know.
        if self.config.temperature is not None:
            payload["temperature"] = self.config.temperature
        if self.config.seed is not None:
            payload["seed"] = self.config.seed
        if self.config.max_tokens is not None:
            payload["max_tokens"] = self.config.max_tokens
        return payload

    def _post(self, body: bytes) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        request = urllib.request.Request(self.config.url, data=body, headers=headers, method="POST")
        url = self.config.url
        try:
            with urllib.request.urlopen(request, timeout=self.config.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = _error_detail(exc)
            if exc.code in RETRYABLE_STATUS:
                raise _Retryable(
                    f"HTTP {exc.code} from {url}{detail}",
                    _retry_after(exc.headers.get("Retry-After")),
                ) from None
            if exc.code in FATAL_STATUS:
                raise ChatFatalError(
                    f"HTTP {exc.code} from {url}{detail}; {_FATAL_HINT[exc.code]}"
                ) from None
            raise ChatError(f"HTTP {exc.code} from {url}{detail}") from None
        except TimeoutError:
            raise _Retryable(f"no reply from {url} within {self.config.timeout_s:g} s") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise _Retryable(
                    f"no reply from {url} within {self.config.timeout_s:g} s"
                ) from None
            raise _Retryable(f"cannot reach {url} ({exc.reason})") from None
        except (http.client.HTTPException, ConnectionError) as exc:
            raise _Retryable(f"connection to {url} broke ({exc.__class__.__name__})") from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            # A gateway answering 200 with an HTML page is usually a passing fault.
            raise _Retryable(f"{url} answered with a body that is not JSON") from None
        if not isinstance(data, dict):
            raise ChatError(f"{url} answered with JSON that is not an object")
        return data

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, RETRY_AFTER_CAP_S)
        delay = min(self.config.backoff_max_s, self.config.backoff_s * 2 ** (attempt - 1))
        # Jitter spreads out the threads that all hit the same 5xx at once.
        return delay * random.uniform(0.8, 1.2)


_FATAL_HINT = {
    401: "the API key was refused; check JUDGE_API_KEY",
    403: "the API key may not use this model; check JUDGE_API_KEY and JUDGE_MODEL",
    404: "check JUDGE_BASE_URL (it ends before /chat/completions) and JUDGE_MODEL",
}


class _Retryable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds (delta-seconds or an HTTP date), None when absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def _error_detail(exc: urllib.error.HTTPError) -> str:
    """The server's own error message, shortened, to put after the status in one line."""
    try:
        raw = exc.read().decode("utf-8", "replace")
    except Exception:  # the body only decorates the message; never fail on it
        return ""
    message: Any = raw
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        # OpenAI: {"error": {"message": ...}}; CLOVA Studio: {"status": {"message": ...}}.
        error = data.get("error") or data.get("status")
        if isinstance(error, dict):
            message = error.get("message") or raw
        elif isinstance(error, str):
            message = error
    message = " ".join(str(message).split())[:200]
    return f": {message}" if message else ""


def _content(data: dict[str, Any], url: str) -> str:
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ChatError(f"{url} answered without choices[0].message.content") from None
    if isinstance(content, list):
        # Some servers return content parts; the verdict is in the text parts.
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def _usage(data: dict[str, Any]) -> Usage:
    usage = data.get("usage")
    if not isinstance(usage, dict):
        return Usage()

    def count(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    prompt, completion = count("prompt_tokens"), count("completion_tokens")
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=count("total_tokens") or prompt + completion,
        reported=True,
    )
