"""OpenAI-compatible chat-completions client on the standard library (http.client).

Works with any `/chat/completions` endpoint: OpenAI, vLLM, Ollama, and CLOVA Studio's
OpenAI-compatible API (https://clovastudio.stream.ntruss.com/v1/openai, model HCX-007).
Transient failures (429, 5xx, timeouts, dropped connections, an error object saying "rate
limit") are retried with exponential backoff, honouring Retry-After; a refused key or a wrong
URL stops the whole run, because every other question would fail the same way. The timeout
bounds the whole reply, not each socket read. HTTP(S)_PROXY and NO_PROXY are honoured.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import random
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

from agent_scoring.judge.text import clean

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
    # response_format (a JSON schema of the verdict): auto sends it until the server refuses
    structured_output: Literal["auto", "on", "off"] = "auto"

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
    structured: bool = False  # the reply was asked for with response_format

    @property
    def retries(self) -> int:
        return self.attempts - 1


class ChatClient:
    def __init__(self, config: ClientConfig, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        # Injected so tests can record the backoff delays instead of waiting them out.
        self._sleep = sleep
        # Structured output is sent until the server refuses it once (auto mode).
        self._structured = config.structured_output != "off"
        self._abandoned = threading.local()

    def complete(
        self, messages: list[dict[str, str]], response_format: dict | None = None
    ) -> ChatReply:
        """The judge's reply text. `response_format` (a JSON schema) is sent when the server
        takes it: in auto mode a 400/422 to a request carrying it is asked again once
        without it, and it is not sent again in this run."""
        attempt = 0
        while True:
            attempt += 1
            structured = response_format if self._structured else None
            body = json.dumps(self._payload(messages, structured), ensure_ascii=False)
            try:
                data = self._post(body.encode("utf-8"))
                text = _content(data, self.config.url)
            except _StructuredRefused as exc:
                if self.config.structured_output == "on":
                    raise ChatError(str(exc), attempts=attempt) from None
                self._structured = False
                attempt -= 1  # the server said no to a field, not to the request
                continue
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
            return ChatReply(text=text, attempts=attempt, usage=_usage(data),
                             structured=structured is not None)

    def _payload(self, messages: list[dict[str, str]], response_format: dict | None) -> dict:
        payload: dict[str, Any] = {"model": self.config.model, "messages": messages}
        # Only send what was set: some compatible servers reject fields they do not know.
        if self.config.temperature is not None:
            payload["temperature"] = self.config.temperature
        if self.config.seed is not None:
            payload["seed"] = self.config.seed
        if self.config.max_tokens is not None:
            payload["max_tokens"] = self.config.max_tokens
        if response_format is not None:
            payload["response_format"] = response_format
        return payload

    def _post(self, body: bytes) -> dict[str, Any]:
        """POST within one deadline for the whole reply: `timeout_s` bounds connecting,
        sending, the headers and the last byte of the body together, so a server that
        trickles its reply is cut off like one that says nothing."""
        url = self.config.url
        headers = {"Content-Type": "application/json", "Accept": "application/json",
                   "Connection": "close"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        timeout = self.config.timeout_s
        self._wait_for_abandoned()
        deadline = time.monotonic() + timeout
        expired = threading.Event()
        connection, target = _connection(url, timeout)
        opened: list[socket.socket] = []
        watchdog = threading.Timer(timeout, _cut, (opened, expired))
        watchdog.daemon = True
        watchdog.start()
        try:
            connection.connect()
            # kept apart: the connection hands its socket to the response and forgets it
            opened.append(connection.sock)
            if expired.is_set():
                raise TimeoutError
            connection.request("POST", target, body=body, headers=headers)
            response = connection.getresponse()
            raw = bytearray()
            while chunk := response.read1(65536):
                raw += chunk
                if time.monotonic() > deadline:
                    raise TimeoutError
            status, reply_headers = response.status, response.headers
        except TimeoutError:
            self._abandon(opened, 2 * timeout)
            raise _Retryable(f"no complete reply from {url} within {timeout:g} s") from None
        except (http.client.HTTPException, OSError) as exc:
            if expired.is_set():
                self._abandon(opened, 2 * timeout)
                raise _Retryable(
                    f"no complete reply from {url} within {timeout:g} s") from None
            if isinstance(exc, socket.gaierror):
                raise _Retryable(f"cannot reach {url} ({exc})") from None
            if isinstance(exc, ConnectionRefusedError):
                raise _Retryable(f"cannot reach {url} (connection refused)") from None
            raise _Retryable(f"connection to {url} broke ({exc.__class__.__name__})") from None
        finally:
            watchdog.cancel()
            connection.close()
        if expired.is_set():
            raise _Retryable(f"no complete reply from {url} within {timeout:g} s")
        if status >= 400:
            self._raise_for_status(status, reply_headers, bytes(raw), body)
        try:
            data = json.loads(bytes(raw).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            # A gateway answering 200 with an HTML page is usually a passing fault.
            raise _Retryable(f"{url} answered with a body that is not JSON") from None
        if not isinstance(data, dict):
            raise ChatError(f"{url} answered with JSON that is not an object")
        if data.get("error") and not data.get("choices"):
            # an OpenAI-style error object in a 200 reply: keep the server's own words
            message = _error_message(data)
            if _looks_transient(data):
                raise _Retryable(f"{url} answered with an error: {message}")
            raise ChatError(f"{url} answered with an error: {message}")
        return data

    def _abandon(self, opened: list[socket.socket], budget: float) -> None:
        """Keep a timed-out exchange open (a duplicate of its socket) so that this thread's
        next request first waits for the server to end it: with `--concurrency N` the server
        never answers more than N requests at once."""
        kept = self._abandoned.__dict__.setdefault("sockets", [])
        for sock in opened:
            with contextlib.suppress(OSError):
                kept.append((sock.dup(), time.monotonic() + budget))

    def _wait_for_abandoned(self) -> None:
        """Read each exchange this thread abandoned to its end (the server's reply or close),
        each for at most its budget, then close it."""
        kept = self._abandoned.__dict__.get("sockets", [])
        while kept:
            sock, end = kept.pop()
            with contextlib.suppress(OSError), sock:
                while (left := end - time.monotonic()) > 0:
                    sock.settimeout(left)
                    if not sock.recv(65536):
                        break

    def _raise_for_status(self, status: int, headers, raw: bytes, body: bytes) -> None:
        url = self.config.url
        detail = _error_detail(raw)
        if status in (400, 422) and b'"response_format"' in body:
            raise _StructuredRefused(f"HTTP {status} from {url}{detail}")
        if status in RETRYABLE_STATUS:
            raise _Retryable(f"HTTP {status} from {url}{detail}",
                             _retry_after(headers.get("Retry-After")))
        if status in FATAL_STATUS:
            raise ChatFatalError(f"HTTP {status} from {url}{detail}; {_FATAL_HINT[status]}")
        raise ChatError(f"HTTP {status} from {url}{detail}")

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, RETRY_AFTER_CAP_S)
        delay = min(self.config.backoff_max_s, self.config.backoff_s * 2 ** (attempt - 1))
        # Jitter spreads out the threads that all hit the same 5xx at once.
        return delay * random.uniform(0.8, 1.2)


def _connection(url: str, timeout: float) -> tuple[http.client.HTTPConnection, str]:
    """A connection for `url` (through the proxy of HTTP(S)_PROXY unless NO_PROXY says
    otherwise) and the request target to send on it."""
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "", parts.port
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    proxy = urllib.request.getproxies().get(parts.scheme)
    if proxy and not urllib.request.proxy_bypass(host):
        via = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        if parts.scheme == "https":
            connection = http.client.HTTPSConnection(
                via.hostname or "", via.port or 8080, timeout=timeout,
                context=ssl.create_default_context())
            connection.set_tunnel(host, port or 443)
            return connection, target
        return http.client.HTTPConnection(via.hostname or "", via.port or 8080,
                                          timeout=timeout), url
    if parts.scheme == "https":
        return http.client.HTTPSConnection(host, port, timeout=timeout,
                                           context=ssl.create_default_context()), target
    return http.client.HTTPConnection(host, port, timeout=timeout), target


def _cut(opened: list[socket.socket], expired: threading.Event) -> None:
    """The reply's deadline passed: stop sending, but let the server end the exchange (its
    reply or close, or one more `timeout_s` of silence) before the request is retried, so
    `--concurrency N` never has the server answering more than N requests at once."""
    expired.set()
    for sock in opened:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_WR)


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


class _StructuredRefused(Exception):
    """The server refused a request that carried response_format."""


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


def _error_detail(raw: bytes) -> str:
    """The server's own error message, shortened, to put after the status in one line."""
    text = raw.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    message = _error_message(data) if isinstance(data, dict) else text
    message = " ".join(clean(str(message)).split())[:200]
    return f": {message}" if message else ""


def _error_message(data: dict[str, Any]) -> str:
    # OpenAI: {"error": {"message": ...}}; CLOVA Studio: {"status": {"message": ...}}.
    error = data.get("error") or data.get("status")
    if isinstance(error, dict):
        return str(error.get("message") or error.get("code") or json.dumps(error))
    if isinstance(error, str):
        return error
    return json.dumps(data, ensure_ascii=False)[:200]


def _looks_transient(data: dict[str, Any]) -> bool:
    """An error object that says "try again" (rate limit, overload, server error)."""
    error = data.get("error")
    words = json.dumps(error, ensure_ascii=False).lower() if error else ""
    return any(w in words for w in ("rate", "limit", "overload", "server_error", "timeout",
                                    "unavailable", "429", "503", "502", "500"))


def _content(data: dict[str, Any], url: str) -> str:
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ChatError(f"{url} answered without choices[0].message.content") from None
    if isinstance(content, list):
        # Some servers return content parts; the verdict is in the text parts.
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return clean(str(content or ""))


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
