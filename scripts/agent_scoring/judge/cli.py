"""`score-report judge`: judge the chatbot's answers and write an evaluation report."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

import click

from agent_scoring.judge.cache import CacheError, VerdictCache, default_cache_path
from agent_scoring.judge.client import ChatClient, ClientConfig
from agent_scoring.judge.inputs import InputError, load_answers, load_dataset
from agent_scoring.judge.keyword import KeywordJudge
from agent_scoring.judge.prompts import (
    DEFAULT_MAX_DOC_CHARS,
    DEFAULT_MAX_DOCS,
    PROMPT_VERSION,
    PromptLimits,
)
from agent_scoring.judge.providers import FatalJudgeError, Judge, OpenAIJudge
from agent_scoring.judge.report import (
    RulesError,
    build_report,
    default_input_dir,
    report_tag,
    scoring_rules,
    write_report,
)
from agent_scoring.judge.runner import RunStats, run

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}


@click.command()
@click.argument("dataset", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("answers", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--provider",
    type=click.Choice(["openai", "keyword"]),
    default="openai",
    show_default=True,
    help="openai: any OpenAI-compatible endpoint (HCX-007 on CLOVA Studio); "
    "keyword: offline demo judge, no network, report flagged as demo.",
)
@click.option(
    "--base-url",
    envvar="JUDGE_BASE_URL",
    show_envvar=True,
    help="Endpoint base, before /chat/completions, "
    "e.g. https://clovastudio.stream.ntruss.com/v1/openai.",
)
@click.option(
    "--model",
    envvar="JUDGE_MODEL",
    show_envvar=True,
    default="HCX-007",
    show_default=True,
    help="Judge model name.",
)
@click.option(
    "--api-key",
    envvar="JUDGE_API_KEY",
    show_envvar=True,
    help="Bearer key (not needed for a server on localhost).",
)
@click.option(
    "--temperature",
    envvar="JUDGE_TEMPERATURE",
    type=float,
    default=0.0,
    show_default=True,
    help="Sampling temperature sent to the judge.",
)
@click.option(
    "--seed",
    envvar="JUDGE_SEED",
    type=int,
    default=None,
    help="Sampling seed sent to the judge (when the endpoint supports it).",
)
@click.option(
    "--max-tokens",
    type=click.IntRange(min=1),
    default=None,
    help="max_tokens sent to the judge; unset lets the endpoint decide.",
)
@click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    default=4,
    show_default=True,
    help="Requests in flight at once.",
)
@click.option(
    "--timeout",
    "timeout_s",
    type=click.FloatRange(min=0, min_open=True),
    default=120.0,
    show_default=True,
    help="Seconds to wait for one reply.",
)
@click.option(
    "--max-retries",
    type=click.IntRange(min=0),
    default=4,
    show_default=True,
    help="Retries of one request on 429/5xx/timeouts/connection errors.",
)
@click.option(
    "--backoff",
    "backoff_s",
    type=click.FloatRange(min=0),
    default=2.0,
    show_default=True,
    help="First retry delay in seconds; doubles each retry (Retry-After wins).",
)
@click.option(
    "--verdict-retries",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Corrective re-asks after a reply that is not a valid verdict.",
)
@click.option(
    "--stop-after-failures",
    type=click.IntRange(min=0),
    default=5,
    show_default=True,
    help="Stop when this many questions in a row fail the same way (0: never); the rest are "
    "reported as not judged.",
)
@click.option(
    "--structured-output",
    type=click.Choice(["auto", "on", "off"]),
    default="auto",
    show_default=True,
    help="Send the verdict's JSON schema as response_format: auto stops sending it once "
    "the server refuses it; the reply is parsed either way.",
)
@click.option(
    "--max-docs",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_DOCS,
    show_default=True,
    help="Retrieved documents shown to the judge (0: all).",
)
@click.option(
    "--max-doc-chars",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_DOC_CHARS,
    show_default=True,
    help="Characters shown per document (0: all).",
)
@click.option(
    "--cache",
    "cache_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Verdict cache (DuckDB) [default: $JUDGE_CACHE or .judge_cache.duckdb].",
)
@click.option(
    "--no-cache", is_flag=True, help="Ask the judge again; do not read or write the cache."
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the report goes [default: $AGENT_SCORING_INPUT_DIR or "
    "docs/test-result], so the next `dbt build` reads it.",
)
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The agent-scoring project: its seeds/rag_scoring_rules.csv is the scoring rule "
    "(the pass mark and the hallucination penalty the warehouse scores with).",
)
def judge(
    dataset: Path,
    answers: Path,
    provider: str,
    base_url: str | None,
    model: str,
    api_key: str | None,
    temperature: float,
    seed: int | None,
    max_tokens: int | None,
    concurrency: int,
    timeout_s: float,
    max_retries: int,
    backoff_s: float,
    verdict_retries: int,
    stop_after_failures: int,
    structured_output: str,
    max_docs: int,
    max_doc_chars: int,
    cache_path: Path | None,
    no_cache: bool,
    out_dir: Path | None,
    project: Path,
) -> None:
    """Judge ANSWERS (JSONL) to the questions of DATASET (qa_dataset*.json) and write
    evaluation_report_<dataset suffix>_<YYYYMMDD_HHMMSS>.json into the input directory.

    Each ANSWERS line: {"question_id", "answer", "retrieved_docs": [{"content", "metadata"}],
    "retrieved_docs_count", "retrieval_time_ms", "filter_applied", "error"}.

    Exit status 0 when every question got a verdict (or a chatbot error), 1 when any did
    not (the report is written all the same, marked "complete": false), 130 on Ctrl-C (the
    verdicts that arrived are kept in a partial report)."""
    try:
        rules = scoring_rules(project)
        data = load_dataset(dataset)
        answered = load_answers(answers)
    except (RulesError, InputError) as exc:
        raise click.ClickException(str(exc)) from None
    unknown = sorted(set(answered) - {q["id"] for q in data.questions})
    if unknown:
        click.echo(
            f"{answers}: {len(unknown)} answer(s) for questions not in {dataset.name} "
            f"ignored: {', '.join(unknown[:5])}{' …' if len(unknown) > 5 else ''}",
            err=True,
        )

    if provider == "keyword":
        chosen: Judge = KeywordJudge()
    else:
        config = ClientConfig(
            base_url=_require_base_url(base_url),
            model=model,
            api_key=_require_key(api_key, base_url or ""),
            timeout_s=timeout_s,
            max_retries=max_retries,
            backoff_s=backoff_s,
            temperature=temperature,
            seed=seed,
            max_tokens=max_tokens,
            structured_output=structured_output,
        )
        chosen = OpenAIJudge(ChatClient(config), verdict_retries=verdict_retries)

    # The offline judge is free and instant; caching it would only fill the cache file.
    use_cache = provider != "keyword" and not no_cache
    started = datetime.now()
    try:
        cache = VerdictCache(cache_path or default_cache_path()) if use_cache else None
    except CacheError as exc:
        raise click.ClickException(str(exc)) from None
    interrupted = threading.Event()
    with (
        cache or nullcontext(),
        click.progressbar(length=len(data.questions), label="judging", file=sys.stderr) as bar,
        _ctrl_c_sets(interrupted),
    ):
        try:
            judged, stats = run(
                data,
                answered,
                chosen,
                answers_name=answers.name,
                limits=PromptLimits(max_docs=max_docs, max_doc_chars=max_doc_chars),
                cache=cache,
                concurrency=concurrency,
                progress=bar.update,
                stop_after_failures=stop_after_failures,
                interrupt=interrupted,
            )
        except FatalJudgeError as exc:
            raise click.ClickException(f"judge stopped: {exc}") from None
    report = build_report(
        dataset_version=data.version,
        started=started,
        judged=judged,
        stats=stats,
        provider=chosen.provider,
        model=chosen.model,
        demo=chosen.demo,
        prompt_version=PROMPT_VERSION,
        dataset_file=dataset.name,
        answers_file=answers.name,
        rules=rules,
    )
    target = write_report(
        report, out_dir or default_input_dir(), report_tag(data.version, dataset), datetime.now()
    )
    if interrupted.is_set():
        click.echo(
            f"interrupted: {stats.judged + stats.cached} of {stats.questions} questions have a "
            f"verdict; partial report {target} (complete: false)",
            err=True,
        )
        sys.exit(130)
    click.echo(_summary(stats), err=True)
    demo = " (demo: offline keyword judge)" if chosen.demo else ""
    click.echo(
        f"{target}: {report['passed_questions']}/{report['total_questions']} passed, "
        f"{len(report['error_questions'])} error(s){demo}"
    )
    if not report["complete"]:
        why = f" ({stats.stopped})" if stats.stopped else ""
        raise click.ClickException(
            f"incomplete: {stats.unjudged} question(s) without a verdict{why}; the report is "
            "marked complete: false"
        )


@contextmanager
def _ctrl_c_sets(event: threading.Event):
    """While judging, Ctrl-C only sets `event`: the run stops at its next step and writes
    what arrived, instead of a KeyboardInterrupt tearing through whatever line was running.
    A second Ctrl-C interrupts as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only (e.g. a test runner's worker)
        return

    def handle(signum, frame):
        if event.is_set():
            signal.default_int_handler(signum, frame)
        event.set()

    previous = signal.signal(signal.SIGINT, handle)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _require_base_url(base_url: str | None) -> str:
    if not base_url:
        raise click.UsageError(
            "no judge endpoint: set JUDGE_BASE_URL (e.g. "
            "https://clovastudio.stream.ntruss.com/v1/openai) or pass --base-url; "
            "--provider keyword runs the offline demo"
        )
    if urlparse(base_url).scheme not in ("http", "https"):
        raise click.UsageError(f"--base-url {base_url!r} is not an http(s) URL")
    return base_url


def _require_key(api_key: str | None, base_url: str) -> str | None:
    # A local server (vLLM, Ollama, a test double) usually has no key; a remote one always
    # does, and sending 80 unauthenticated requests only to read 80 refusals helps no one.
    if not api_key and urlparse(base_url).hostname not in LOCAL_HOSTS:
        raise click.UsageError("no judge API key: set JUDGE_API_KEY or pass --api-key")
    return api_key


def _summary(stats: RunStats) -> str:
    line = (
        f"judge: {stats.questions} questions: {stats.judged} judged, {stats.cached} cached, "
        f"{stats.judge_errors} failed, {stats.answer_errors} answer error(s), "
        f"{stats.missing_answers} without answer, {stats.not_judged} not judged; "
        f"{stats.requests} request(s), "
        f"{stats.http_retries} HTTP retr{'y' if stats.http_retries == 1 else 'ies'}, "
        f"{stats.invalid_replies} invalid verdict(s) of which {stats.reasks} re-asked"
    )
    if stats.usage.reported:
        line += (
            f"; tokens: {stats.usage.prompt_tokens:,} prompt + "
            f"{stats.usage.completion_tokens:,} completion"
        )
    return line
