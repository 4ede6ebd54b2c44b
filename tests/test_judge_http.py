"""The judge's real HTTP client against a local chat-completions server on 127.0.0.1.

The server (pytest-httpserver, threaded so a slow reply does not block the retry) plays a
script per question: valid, fenced, malformed or out-of-range verdicts, 429/5xx and slow
replies. Nothing in the client is patched; only the backoff sleep is injected so the tests
can check the delays without waiting them out.
"""

from __future__ import annotations

import json
import socket

import pytest
from agent_scoring.cli import main
from agent_scoring.judge.cache import VerdictCache
from agent_scoring.judge.client import ChatClient, ChatError, ChatFatalError, ClientConfig
from agent_scoring.judge.providers import FatalJudgeError
from agent_scoring.judge.report import result_row, scoring_rules
from click.testing import CliRunner
from support.chat_server import (
    ANSWERS,
    DATASET,
    JUDGED_IDS,
    by_id,
    client_for,
    judge_all,
    ok,
    slow,
    status,
    verdict,
)
from support.warehouse import REPO

RULES = scoring_rules(REPO)  # the warehouse's rule, as the judge reads it

# --- the client ------------------------------------------------------------------------


def test_client_sends_model_messages_temperature_seed_and_bearer_key(server, script):
    reply = client_for(server, seed=7, temperature=0.0).complete(
        [{"role": "user", "content": "hi"}]
    )
    body = script.calls["*"][0]
    assert body["model"] == "HCX-007"
    assert body["messages"] == [{"role": "user", "content": "hi"}]
    assert body["temperature"] == 0.0 and body["seed"] == 7
    assert script.headers[0]["Authorization"] == "Bearer test-key"
    assert reply.text == verdict() and reply.retries == 0


def test_usage_reported_by_the_api_is_read(server, script):
    reply = client_for(server).complete([{"role": "user", "content": "hi"}])
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (2000, 150)


def test_429_is_retried_after_the_retry_after_delay(server, script):
    script.on("*", status(429, {"Retry-After": "3"}), ok(verdict()))
    sleeps: list[float] = []
    reply = client_for(server, sleeps).complete([{"role": "user", "content": "hi"}])
    assert len(script.calls["*"]) == 2
    assert reply.retries == 1
    assert sleeps == [3.0]


def test_5xx_is_retried_with_doubling_backoff_then_gives_up(server, script):
    script.on("*", status(503))
    sleeps: list[float] = []
    with pytest.raises(ChatError, match=r"HTTP 503 .*gave up after 3 attempts") as caught:
        client_for(server, sleeps, max_retries=2, backoff_s=0.01).complete(
            [{"role": "user", "content": "hi"}]
        )
    assert caught.value.attempts == 3
    assert len(script.calls["*"]) == 3
    assert 0.008 <= sleeps[0] <= 0.012 and 0.016 <= sleeps[1] <= 0.024


def test_a_reply_slower_than_the_timeout_is_retried(server, script):
    script.on("*", slow(0.6, ok(verdict())), ok(verdict()))
    reply = client_for(server, timeout_s=0.2).complete([{"role": "user", "content": "hi"}])
    assert reply.retries == 1 and reply.text == verdict()


def test_timeouts_on_every_attempt_become_a_chat_error(server, script):
    script.on("*", slow(0.5, ok(verdict())))
    with pytest.raises(ChatError, match=r"no complete reply .* within 0.1 s"):
        client_for(server, timeout_s=0.1, max_retries=1).complete(
            [{"role": "user", "content": "hi"}]
        )
    assert len(script.calls["*"]) == 2


def test_a_refused_key_is_fatal_and_not_retried(server, script):
    script.on("*", status(401, message="invalid api key"))
    with pytest.raises(ChatFatalError, match=r"HTTP 401 .*invalid api key.*JUDGE_API_KEY"):
        client_for(server).complete([{"role": "user", "content": "hi"}])
    assert len(script.calls["*"]) == 1


def test_an_unreachable_server_is_retried_then_reported():
    with socket.socket() as probe:  # a port nobody listens on once the socket closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = ClientConfig(
        base_url=f"http://127.0.0.1:{port}/v1",
        model="m",
        max_retries=1,
        backoff_s=0.0,
        timeout_s=1.0,
    )
    with pytest.raises(ChatError, match="cannot reach") as caught:
        ChatClient(config, sleep=lambda s: None).complete([{"role": "user", "content": "x"}])
    assert caught.value.attempts == 2


# --- the judge over a dataset ----------------------------------------------------------


def test_valid_verdicts_are_recorded_for_every_answered_question(server, script):
    judged, stats = judge_all(server)
    results = by_id(judged)
    assert all(results[qid].outcome.verdict is not None for qid in JUDGED_IDS)
    assert stats.judged == 4 and stats.requests == 4 and stats.judge_errors == 0
    assert stats.answer_errors == 1  # the fixture's chatbot timeout, never sent to the judge
    assert "t_multihop_001" not in script.calls
    assert stats.usage.prompt_tokens == 8000


def test_a_fenced_verdict_is_accepted(server, script):
    script.on("t_concept_001", ok(f"평가 결과입니다.\n```json\n{verdict(f=5)}\n```"))
    judged, _ = judge_all(server)
    assert by_id(judged)["t_concept_001"].outcome.verdict.faithfulness == 5


def test_malformed_json_is_asked_again_with_the_bad_reply_and_the_reason(server, script):
    script.on("t_impl_001", ok('{"faithfulness": 4, "relevance": 5,'), ok(verdict(c=3)))
    judged, stats = judge_all(server)
    outcome = by_id(judged)["t_impl_001"].outcome
    assert outcome.verdict.completeness == 3
    assert outcome.invalid_replies == 1 and stats.invalid_replies == 1
    second = script.calls["t_impl_001"][1]["messages"]
    assert second[2] == {"role": "assistant", "content": '{"faithfulness": 4, "relevance": 5,'}
    assert second[3]["role"] == "user" and "no JSON object found" in second[3]["content"]


def test_out_of_range_scores_become_a_judge_error_after_n_corrective_retries(server, script):
    script.on("t_concept_001", ok(verdict(f=7)))
    judged, stats = judge_all(server, verdict_retries=2)
    item = by_id(judged)["t_concept_001"]
    assert len(script.calls["t_concept_001"]) == 3
    assert item.outcome.verdict is None
    assert "faithfulness must be an integer from 1 to 5, got 7" in item.outcome.error
    assert stats.judge_errors == 1 and stats.judged == 3
    row = result_row(item, RULES)
    assert row["passed"] is False and row["judge"] is None
    assert row["error"].startswith("judge: no valid verdict after 3 replies")


def test_a_429_inside_a_run_is_retried_and_counted(server, script):
    script.on("t_unrelated_001", status(429, {"Retry-After": "0"}), ok(verdict()))
    judged, stats = judge_all(server)
    assert by_id(judged)["t_unrelated_001"].outcome.verdict is not None
    assert stats.http_retries == 1 and stats.requests == 5


def test_a_timeout_inside_a_run_is_retried(server, script):
    script.on("t_halluc_001", slow(0.6, ok(verdict())), ok(verdict(h=True, b=False)))
    judged, stats = judge_all(server, timeout_s=0.2)
    assert by_id(judged)["t_halluc_001"].outcome.verdict.hallucination_detected is True
    assert stats.http_retries == 1


def test_a_second_run_over_unchanged_inputs_makes_no_http_calls(server, script, tmp_path):
    with VerdictCache(tmp_path / "cache.duckdb") as cache:
        first, _ = judge_all(server, cache=cache)
        calls_after_first = script.total_calls
        second, stats = judge_all(server, cache=cache)
    assert calls_after_first == 4
    assert script.total_calls == calls_after_first
    assert stats.cached == 4 and stats.requests == 0
    assert [result_row(i, RULES) for i in first] == [result_row(i, RULES) for i in second]


def test_judge_errors_are_not_cached_so_a_rerun_asks_again(server, script, tmp_path):
    script.on("t_concept_001", ok("판단할 수 없습니다"))
    with VerdictCache(tmp_path / "cache.duckdb") as cache:
        judge_all(server, cache=cache, verdict_retries=0)
        script.on("t_concept_001", ok(verdict()))
        _, stats = judge_all(server, cache=cache)
    assert stats.cached == 3 and stats.judged == 1


def test_a_changed_answer_misses_the_cache(server, script, tmp_path):
    changed = tmp_path / "answers.jsonl"
    lines = ANSWERS.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("model.to(device)", "model.cuda()")
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with VerdictCache(tmp_path / "cache.duckdb") as cache:
        judge_all(server, cache=cache)
        _, stats = judge_all(server, cache=cache, answers=changed)
    assert stats.cached == 3 and stats.judged == 1
    assert len(script.calls["t_impl_001"]) == 2


def test_a_refused_key_stops_the_whole_run(server, script):
    script.on("*", status(401))
    with pytest.raises(FatalJudgeError, match="HTTP 401"):
        judge_all(server, concurrency=1)
    assert script.total_calls == 1


# --- the command -------------------------------------------------------------------------


def test_cli_judges_through_the_server_then_reuses_the_cache(server, script, tmp_path):
    env = {
        "JUDGE_BASE_URL": server.url_for("/v1"),
        "JUDGE_MODEL": "HCX-007",
        "JUDGE_API_KEY": "test-key",
        "AGENT_SCORING_INPUT_DIR": str(tmp_path / "in"),
    }
    args = [
        "judge",
        str(DATASET),
        str(ANSWERS),
        "--cache",
        str(tmp_path / "c.duckdb"),
        "--backoff",
        "0",
    ]
    first = CliRunner().invoke(main, args, env=env)
    assert first.exit_code == 0, first.output
    assert script.total_calls == 4
    second = CliRunner().invoke(main, args, env=env)
    assert second.exit_code == 0, second.output
    assert script.total_calls == 4
    assert "0 judged, 4 cached" in second.stderr
    reports = sorted((tmp_path / "in").glob("evaluation_report_mini_*.json"))
    assert len(reports) == 2
    report = json.loads(reports[-1].read_text(encoding="utf-8"))
    assert report["judge_provider"] == "openai" and report["judge_model"] == "HCX-007"
    assert report["demo"] is False
    assert report["error_questions"] == ["t_multihop_001"]


def test_cli_no_cache_asks_the_judge_again(server, script, tmp_path):
    env = {"JUDGE_BASE_URL": server.url_for("/v1"), "AGENT_SCORING_INPUT_DIR": str(tmp_path)}
    args = ["judge", str(DATASET), str(ANSWERS), "--cache", str(tmp_path / "c.duckdb")]
    CliRunner().invoke(main, args, env=env)
    result = CliRunner().invoke(main, [*args, "--no-cache"], env=env)
    assert result.exit_code == 0, result.output
    assert script.total_calls == 8


def test_cli_reports_a_refused_key_in_one_line(server, script, tmp_path):
    script.on("*", status(401, message="invalid api key"))
    env = {
        "JUDGE_BASE_URL": server.url_for("/v1"),
        "JUDGE_API_KEY": "wrong",
        "AGENT_SCORING_INPUT_DIR": str(tmp_path),
    }
    result = CliRunner().invoke(main, ["judge", str(DATASET), str(ANSWERS), "--no-cache"], env=env)
    assert result.exit_code == 1
    assert "judge stopped: HTTP 401" in result.stderr
    assert "Traceback" not in result.output
    assert not list(tmp_path.glob("evaluation_report*.json"))
