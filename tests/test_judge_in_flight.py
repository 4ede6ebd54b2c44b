"""`--concurrency N` bounds the requests the judge server sees at once, retries included."""

from __future__ import annotations

import threading
import time

from support.chat_server import judge_all, ok, verdict
from werkzeug import Request, Response


class InFlight:
    """A handler that counts the requests it is answering at the same moment."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.now, self.most, self.calls = seconds, 0, 0, 0
        self.lock = threading.Lock()

    def __call__(self, request: Request) -> Response:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(self.seconds)
            return ok(verdict())()
        finally:
            with self.lock:
                self.now -= 1


def test_concurrency_one_keeps_one_request_in_flight_even_when_requests_time_out(server):
    handler = InFlight(seconds=0.6)  # longer than the client's timeout: every try times out
    server.clear()
    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    # the client waits up to 2 × timeout for an abandoned exchange: ample for 0.6 s here
    judge_all(server, concurrency=1, timeout_s=0.4, max_retries=1, verdict_retries=0)
    assert handler.calls >= 2
    assert handler.most == 1


def test_concurrency_one_without_timeouts(server):
    handler = InFlight(seconds=0.3)
    server.clear()
    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    judge_all(server, concurrency=1)
    assert handler.most == 1
