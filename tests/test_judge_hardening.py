"""The judge runner against a server that misbehaves on purpose (issue 16): reasoning before
the verdict, every request failing, a reply trickled past the deadline, error objects in a
200, lone surrogates, Ctrl-C, honest counts, structured output - and the warehouse never
averaging a judge error in."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agent_scoring.cli import main
from agent_scoring.judge.client import ChatError
from agent_scoring.judge.verdict import VerdictError, parse_verdict
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
from support.warehouse import REPO, all_rows, build, copy_inputs
from werkzeug import Response


def cli_env(server, tmp_path: Path) -> dict[str, str]:
    return {"JUDGE_BASE_URL": server.url_for("/v1"), "JUDGE_API_KEY": "k",
            "AGENT_SCORING_INPUT_DIR": str(tmp_path / "in")}


def judge_cli(server, tmp_path: Path, *extra: str):
    args = ["judge", str(DATASET), str(ANSWERS), "--no-cache", "--backoff", "0", *extra]
    return CliRunner().invoke(main, args, env=cli_env(server, tmp_path))


def written_report(tmp_path: Path) -> dict:
    (report,) = (tmp_path / "in").glob("evaluation_report_*.json")
    return json.loads(report.read_text(encoding="utf-8"))


# --- reasoning before the verdict ---------------------------------------------------------


def test_the_verdict_after_the_reasoning_wins_over_a_draft_inside_it():
    draft, final = verdict(f=2), verdict(f=5)
    assert parse_verdict(f"<think>초안: {draft}\n다시 보니 근거가 있다.</think>\n{final}") \
        .faithfulness == 5
    assert parse_verdict(f"<reasoning>{draft}</reasoning>```json\n{final}\n```").faithfulness == 5


def test_a_corrected_verdict_wins_over_the_first_one():
    assert parse_verdict(f"{verdict(f=2)}\n정정합니다:\n{verdict(f=4)}").faithfulness == 4


def test_a_reply_of_reasoning_only_is_no_verdict():
    with pytest.raises(VerdictError, match="only reasoning"):
        parse_verdict(f"<think>{verdict()} 그리고 더 생각하면")


def test_the_final_verdict_is_recorded_through_the_server(server, script):
    script.on("t_concept_001", ok(f"<think>{verdict(f=1)}</think>{verdict(f=5)}"))
    judged, _ = judge_all(server)
    assert by_id(judged)["t_concept_001"].outcome.verdict.faithfulness == 5


# --- failures: exit status, incomplete reports, stopping early ----------------------------


def test_a_failed_question_exits_1_and_the_report_says_incomplete(server, script, tmp_path):
    script.on("t_impl_001", status(503))
    result = judge_cli(server, tmp_path, "--max-retries", "0")
    assert result.exit_code == 1
    assert "incomplete: 1 question(s) without a verdict" in result.output
    report = written_report(tmp_path)
    assert report["complete"] is False
    assert report["not_judged_questions"] == ["t_impl_001"]
    assert next(r for r in report["results"] if r["question_id"] == "t_impl_001")["error"] \
        .startswith("judge: HTTP 503")


def test_a_clean_run_exits_0_and_is_complete(server, script, tmp_path):
    result = judge_cli(server, tmp_path)
    assert result.exit_code == 0, result.output
    assert written_report(tmp_path)["complete"] is True


def test_the_run_stops_after_n_identical_failures(server, script, tmp_path):
    script.on("*", status(400, message="model overloaded: try later"))
    result = judge_cli(server, tmp_path, "--concurrency", "1", "--stop-after-failures", "2",
                       "--structured-output", "off")
    assert result.exit_code == 1
    assert script.total_calls == 2
    report = written_report(tmp_path)
    assert report["judge_stats"]["not_judged"] == 2
    assert report["stopped"].startswith("stopped after 2 identical failures in a row")
    assert "stopped after 2 identical failures" in result.output
    not_judged = [r for r in report["results"] if (r["error"] or "").startswith("not judged")]
    assert len(not_judged) == 2



def test_after_a_stop_every_request_the_judge_saw_is_counted(server, script, tmp_path):
    # With several workers, questions already in flight when the run stops were asked:
    # their failures are recorded, not reported as "not judged".
    script.on("*", status(400, message="model overloaded: try later"))
    result = judge_cli(server, tmp_path, "--concurrency", "3", "--stop-after-failures", "2",
                       "--structured-output", "off")
    assert result.exit_code == 1
    stats = written_report(tmp_path)["judge_stats"]
    assert stats["requests"] == script.total_calls
    assert stats["judge_errors"] == script.total_calls
    assert stats["judge_errors"] + stats["not_judged"] == stats["questions"] - \
        stats["answer_errors"] - stats["missing_answers"]

# --- the client ----------------------------------------------------------------------------


def trickle(seconds: float, content: str) -> callable:
    """A 200 whose body arrives a few bytes at a time over `seconds`."""
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]})
    pieces = [body[i:i + 8].encode() for i in range(0, len(body), 8)]

    def stream():
        for piece in pieces:
            time.sleep(seconds / len(pieces))
            yield piece

    return lambda: Response(stream(), 200, content_type="application/json")


def test_the_timeout_bounds_the_whole_reply_not_each_read(server, script):
    script.on("*", trickle(3.0, verdict()))
    started = time.monotonic()
    with pytest.raises(ChatError, match="no complete reply .* within 1 s"):
        client_for(server, timeout_s=1.0, max_retries=0).complete(
            [{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 1.8


def test_a_reply_inside_the_deadline_is_read_whole(server, script):
    script.on("*", trickle(0.3, verdict(f=3)))
    reply = client_for(server, timeout_s=2.0).complete([{"role": "user", "content": "hi"}])
    assert json.loads(reply.text)["faithfulness"] == 3


def error_object(message: str, kind: str) -> callable:
    body = json.dumps({"error": {"message": message, "type": kind}})
    return lambda: Response(body, 200, content_type="application/json")


def test_an_error_object_in_a_200_keeps_the_servers_message(server, script):
    script.on("*", error_object("context length exceeded by 512 tokens",
                                "invalid_request_error"))
    with pytest.raises(ChatError, match="answered with an error: context length exceeded"):
        client_for(server).complete([{"role": "user", "content": "hi"}])
    assert script.total_calls == 1


def test_a_rate_limit_error_object_in_a_200_is_retried(server, script):
    script.on("*", error_object("Rate limit reached", "rate_limit_error"), ok(verdict()))
    reply = client_for(server).complete([{"role": "user", "content": "hi"}])
    assert reply.retries == 1


def test_lone_surrogates_in_an_answer_and_a_reply_never_crash(server, script, tmp_path):
    answers = tmp_path / "answers.jsonl"
    lines = ANSWERS.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"answer": "', '"answer": "\\ud83d 깨진 이모지 ', 1)
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    broken = verdict().replace("검색 문서에", "\\ud83d 검색 문서에")
    script.on("*", ok(broken))
    result = CliRunner().invoke(main, ["judge", str(DATASET), str(answers), "--cache",
                                       str(tmp_path / "c.duckdb")],
                                env=cli_env(server, tmp_path))
    assert result.exit_code == 0, result.output
    report = written_report(tmp_path)
    reasons = [r["judge"]["reasoning"] for r in report["results"] if r["judge"]]
    assert all(reason.startswith("\ufffd 검색 문서에") for reason in reasons)
    sent = json.dumps(script.calls[JUDGED_IDS[0]][0], ensure_ascii=False)
    assert "\ufffd 깨진 이모지" in sent or "\\ufffd" in sent


# --- honest counts ------------------------------------------------------------------------


def test_the_summary_counts_invalid_replies_and_re_asks_apart(server, script, tmp_path):
    script.on("t_concept_001", ok("판단 불가"))
    result = judge_cli(server, tmp_path, "--verdict-retries", "1")
    assert result.exit_code == 1
    assert len(script.calls["t_concept_001"]) == 2
    assert "2 invalid verdict(s) of which 1 re-asked" in result.output
    stats = written_report(tmp_path)["judge_stats"]
    assert (stats["invalid_replies"], stats["reasks"], stats["requests"]) == (2, 1, 5)


# --- structured output ----------------------------------------------------------------------


def test_the_verdict_schema_is_sent_as_response_format(server, script):
    judge_all(server)
    body = script.calls["t_concept_001"][0]
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["faithfulness", "relevance", "completeness",
                                  "hallucination_detected", "behavior_correct", "reasoning"]


def test_a_server_refusing_response_format_is_asked_without_it(server, script):
    sent_schema: list[bool] = []

    def handler(request):
        body = request.get_json()
        sent_schema.append("response_format" in body)
        if "response_format" in body:
            message = {"error": {"message": "response_format is not supported"}}
            return Response(json.dumps(message), 400, content_type="application/json")
        return ok(verdict())()

    server.clear()
    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    judged, stats = judge_all(server, concurrency=1)
    assert all(by_id(judged)[q].outcome.verdict is not None for q in JUDGED_IDS)
    assert sent_schema == [True, False, False, False, False]  # never sent again once refused
    assert stats.judge_errors == 0 and stats.requests == 4


# --- Ctrl-C ---------------------------------------------------------------------------------


@pytest.mark.parametrize("wait", [0.2, 1.0, 2.0])
def test_ctrl_c_exits_within_2_s_with_one_line_keeping_the_verdicts(server, script,
                                                                    tmp_path, wait):
    script.on("*", slow(1.5, ok(verdict())))  # 4 questions, 2 at a time: about 3 s
    env = {**os.environ, **cli_env(server, tmp_path)}
    command = [str(Path(sys.executable).with_name("score-report")), "judge", str(DATASET),
               str(ANSWERS), "--no-cache", "--concurrency", "2"]
    process = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while script.total_calls == 0 and time.monotonic() < deadline:
        time.sleep(0.02)  # judging has begun: the first request reached the server
    time.sleep(wait)
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=10)
    assert time.monotonic() - sent < 2.0
    assert process.returncode == 130, err
    assert "Traceback" not in err + out
    lines = [line for line in err.splitlines() if line.strip() and "judging" not in line]
    assert len(lines) == 1 and lines[0].startswith("interrupted: ")
    report = written_report(tmp_path)
    assert report["complete"] is False
    arrived = int(lines[0].split("interrupted: ")[1].split(" of ")[0])
    assert sum(1 for r in report["results"] if r["judge"]) == arrived


# --- the warehouse ----------------------------------------------------------------------


def test_judge_errors_are_never_averaged_in_and_an_incomplete_run_says_so(
        server, script, tmp_path):
    script.on("t_impl_001", status(503))
    judge_cli(server, tmp_path, "--max-retries", "0")
    inputs = copy_inputs([DATASET], tmp_path / "in")
    warehouse = build(inputs, tmp_path / "w", select=["tag:rag"])
    with warehouse.connect() as con:
        criteria = {r["criterion_id"]: r for r in all_rows(
            con, "select * from rag_success_criteria")}
        run = all_rows(con, "select * from rag_run_scores")[0]
        statuses = {r["question_id"]: r["judge_status"] for r in all_rows(
            con, "select question_id, judge_status from rag_judgements")}
    assert statuses["t_impl_001"] == "judge_error"
    assert statuses["t_multihop_001"] == "error"  # the chatbot's own error still counts
    in_domain = next(c for c in criteria.values() if c["metric"] == "mean_overall_score")
    assert in_domain["judge_errors"] == 1
    assert "judge 오류 1건" in in_domain["note"]
    assert (run["is_complete"], run["judge_error_questions"]) == (False, 1)
