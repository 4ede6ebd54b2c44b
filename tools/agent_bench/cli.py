"""`scripts/bench`: the command line of the benchmark (the runs are `runner`, the figures
and targets `results`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from agent_bench.generate import Faults, agent_of, generate_exports, parse_file_rows
from agent_bench.pyscore import PROJECT_DIR, load_rules, score_files
from agent_bench.results import (
    DailyResult,
    FixedCost,
    SizeResult,
    Step,
    format_daily,
    format_findings,
    format_table,
)
from agent_bench.runner import (
    SAMPLES_DIR,
    Runner,
    Settings,
    bench_daily,
    bench_fixed_cost,
    bench_size,
)
from agent_bench.settle import bench_settle
from agent_bench.shape import measure_shape
from agent_bench.warehouse import compare, warehouse_figures

DEFAULT_TEMPLATE = SAMPLES_DIR / "plan_agent_sample.csv"
SMOKE_ROWS = 1000
SMOKE_FILE_ROWS = "262-600"


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"{text!r}: want comma-separated row counts") from exc
    if not sizes or min(sizes) < 1:
        raise click.BadParameter(f"{text!r}: want comma-separated positive row counts")
    return sizes


# the options of more than one command, each written once
OPTIONS = {
    "fault_share": click.option(
        "--fault-share", type=float, default=0.05, show_default=True,
        help="Share of generated rows made faulty (3/5 timeouts, 1/5 empty, 1/5 "
             "invalid JSON) on top of the template's own faults."),
    "seed": click.option("--seed", type=int, default=7, show_default=True),
    "template": click.option(
        "--template", type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=DEFAULT_TEMPLATE, show_default=True,
        help="Export to resample (its name gives the agent prefix)."),
    "exclude": click.option(
        "--exclude", multiple=True, default=("tag:rag",), show_default=True,
        help="dbt --exclude selector (repeatable); `--exclude ''` builds every model "
             "(`daily --exclude ''` runs README command 1 exactly)."),
    "memory_limit": click.option(
        "--memory-limit", default=None,
        help="DuckDB memory_limit for dbt (AGENT_SCORING_MEMORY_LIMIT)."),
    "threads": click.option("--threads", type=int, default=None,
                            help="DuckDB threads for dbt (AGENT_SCORING_THREADS)."),
    "workdir": click.option(
        "--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
        help="Where inputs, DBs and logs go [default: a new temp dir]."),
    "keep": click.option("--keep", is_flag=True,
                         help="Keep the work directory (kept anyway on failure)."),
    "json_path": click.option(
        "--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
        help="Also write all figures (and dbt's per-node timings) here."),
    "top": click.option("--top", type=int, default=6, show_default=True,
                        help="Slowest models to list per build."),
    "project_dir": click.option(
        "--project-dir", type=click.Path(file_okay=False, path_type=Path),
        default=PROJECT_DIR, show_default=True, help="The dbt project."),
}


def options(*names: str):
    """The named OPTIONS (all of them when none is named), in that order."""
    def apply(command):
        for name in reversed(names or tuple(OPTIONS)):
            command = OPTIONS[name](command)
        return command
    return apply


@click.group(invoke_without_command=True)
@click.option("--sizes", default="10000", show_default=True,
              help="Comma-separated row counts to benchmark, e.g. 10000,100000,1000000.")
@click.option("--rows", type=int, default=None, help="One size (overrides --sizes).")
@click.option("--smoke", is_flag=True,
              help=f"CI mode: {SMOKE_ROWS:,} rows in files of {SMOKE_FILE_ROWS} rows.")
@click.option("--file-rows", default="262-5000", show_default=True,
              help="Rows per generated file: N, or LOW-HIGH drawn uniformly per file.")
@click.option("--extra-rows", type=int, default=262, show_default=True,
              help="Rows of the file added before the incremental build.")
@click.option("--repeat", type=click.IntRange(1), default=1, show_default=True,
              help="Run every step this many times and report the median.")
@click.option("--added-file-pairs", type=click.IntRange(1), default=1, show_default=True,
              help="Interleaved pairs (+1 file build, no-change build); between pairs the "
                   "file is removed and the warehouse rebuilt (not timed).")
@click.option("--python/--no-python", "run_python", default=True, show_default=True,
              help="Time the pure-Python scorer and compare its figures.")
@click.option("--site/--no-site", "run_site", default=True, show_default=True,
              help="Time `score-report site` on the clean build's warehouse (files, largest "
                   "file) and the first render of its largest run page in headless Chromium.")
@click.option("--python-max-rows", type=int, default=10_000_000, show_default=True,
              help="Skip the pure-Python scorer above this many rows.")
@click.option("--fixed-cost-pairs", type=click.IntRange(0), default=5, show_default=True,
              help="Interleaved pairs (dbt alone, no-change build + report) on the bundled "
                   "samples; 0 skips the fixed-cost measurement (--smoke: 1).")
@options()
@click.pass_context
def main(
    ctx: click.Context,
    sizes: str,
    rows: int | None,
    smoke: bool,
    file_rows: str,
    extra_rows: int,
    repeat: int,
    added_file_pairs: int,
    run_python: bool,
    run_site: bool,
    python_max_rows: int,
    fault_share: float,
    seed: int,
    template: Path,
    exclude: tuple[str, ...],
    memory_limit: str | None,
    threads: int | None,
    workdir: Path | None,
    keep: bool,
    json_path: Path | None,
    fixed_cost_pairs: int,
    top: int,
    project_dir: Path,
) -> None:
    """Benchmark the scoring warehouse: its fixed cost, and its cost on generated exports of
    growing size.

    Fixed cost: interleaved pairs on the bundled samples, `dbt run -s speed_bands` then a
    no-change `dbt build` + `score-report`. For each size: the narrow and the full floor
    (one DuckDB query each over the same files), a pure-Python scorer (reference and
    cross-check), a clean `dbt build` + `score-report` then `score-report site` (its files and
    the first render of its largest run page in headless Chromium), the same build + report
    with no input files, a build after one more file arrives and a build with no new files;
    wall time, peak RSS, the ratio to the full floor, and each target with its verdict.

    \b
    Subcommands: `daily` (the team's daily loop: a warehouse of 20 runs, one new export),
    `check FILE...` (same figures on given exports), `generate DIR`, `settle` (staging's
    count of an export it cannot read cleanly), `spark`, `shape`.
    """
    if ctx.invoked_subcommand is not None:
        return
    if smoke:
        size_list, file_rows = [SMOKE_ROWS], SMOKE_FILE_ROWS
        fixed_cost_pairs = min(fixed_cost_pairs, 1)
    else:
        size_list = [rows] if rows else parse_sizes(sizes)
    settings = Settings(
        project_dir=project_dir.resolve(),
        template=template.resolve(),
        file_rows=_file_rows(file_rows),
        extra_rows=extra_rows,
        seed=seed,
        faults=_faults(fault_share),
        repeat=repeat,
        added_file_pairs=added_file_pairs,
        run_python=run_python,
        python_max_rows=python_max_rows,
        exclude=exclude,
        memory_limit=memory_limit,
        threads=threads,
        top=top,
        fixed_cost_pairs=fixed_cost_pairs,
        site=run_site,
    )
    root = workdir or Path(tempfile.mkdtemp(prefix="agent-scoring-bench-"))
    results = []
    fixed: FixedCost | None = None
    failed = False
    try:
        if settings.fixed_cost_pairs:
            click.echo(f"== fixed cost on the bundled samples ({root / 'fixed-cost'})")
            fixed = bench_fixed_cost(root / "fixed-cost", settings, click.echo)
            click.echo(fixed.target().line())
            click.echo(fixed.floor_line())
            click.echo()
            if json_path:
                _write_json(json_path, settings, results, fixed)
        for size in size_list:
            click.echo(f"== {size:,} rows ({root / f'rows_{size}'})")
            result = bench_size(size, root / f"rows_{size}", settings, click.echo)
            results.append(result)
            click.echo(format_table(result))
            click.echo(format_findings(result, settings.top))
            click.echo()
            if json_path:  # after every size, so a long run leaves partial results
                _write_json(json_path, settings, results, fixed)
    except BaseException:
        failed = True
        raise
    finally:
        if keep or failed:
            click.echo(f"work directory kept: {root}", err=True)
        elif workdir is None:
            shutil.rmtree(root, ignore_errors=True)
    if any(r.differences for r in results):
        raise click.ClickException("the warehouse and the pure-Python scorer disagree (above)")
    if any(r.failures for r in results):
        raise click.ClickException("some steps failed (above)")


def _file_rows(text: str) -> tuple[int, int]:
    try:
        return parse_file_rows(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--file-rows") from exc


def _faults(share: float) -> Faults:
    if not 0 <= share <= 1:
        raise click.BadParameter("want a share between 0 and 1", param_hint="--fault-share")
    return Faults(timeout=share * 0.6, empty=share * 0.2, invalid_json=share * 0.2)


def pipeline_version(project_dir: Path) -> dict[str, Any]:
    """Which pipeline was measured: the commit and the files changed on top of it."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(project_dir), *args], capture_output=True, text=True
        )
        return done.stdout.strip() if done.returncode == 0 else ""

    changed = git("status", "--porcelain", "--", "models", "macros", "seeds", "dbt_project.yml")
    return {"commit": git("rev-parse", "--short", "HEAD"), "changed": changed.splitlines()}


def _write_json(
    path: Path, settings: Settings, results: list[SizeResult], fixed: FixedCost | None
) -> None:
    payload = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "pipeline": pipeline_version(settings.project_dir),
        "settings": {
            "file_rows": settings.file_rows,
            "extra_rows": settings.extra_rows,
            "repeat": settings.repeat,
            "added_file_pairs": settings.added_file_pairs,
            "site": settings.site,
            "seed": settings.seed,
            "template": str(settings.template),
            "exclude": list(settings.exclude),
            "memory_limit": settings.memory_limit,
            "threads": settings.threads,
        },
        "fixed_cost": fixed.as_dict() if fixed else None,
        "sizes": [result.as_dict() for result in results],
    }
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")


@main.command()
@click.option("--runs", type=click.IntRange(1), default=20, show_default=True,
              help="Exports in the warehouse before the new one (daily runs of one test set).")
@click.option("--file-rows", type=click.IntRange(1), default=262, show_default=True,
              help="Rows per export (the team's are ~262: 131 queries x 2 rounds).")
@click.option("--pairs", type=click.IntRange(1), default=3, show_default=True,
              help="Interleaved pairs (new export, nothing new); the medians are reported.")
@options()
def daily(
    runs: int,
    file_rows: int,
    pairs: int,
    fault_share: float,
    seed: int,
    template: Path,
    exclude: tuple[str, ...],
    memory_limit: str | None,
    threads: int | None,
    workdir: Path | None,
    keep: bool,
    json_path: Path | None,
    top: int,
    project_dir: Path,
) -> None:
    """The team's daily loop: a warehouse of --runs exports of --file-rows rows (the same
    queries in each, as daily runs of one test set), built clean once; then, interleaved
    --pairs times, one new export dropped into the input folder and `dbt build` then
    `score-report` (two processes, README command 1) until its report is written, and the
    same two with nothing new. Every timed new-export build starts from the same warehouse:
    the export is added and removed once before the first pair, and removed after each pair
    with an untimed rebuild. Prints the medians, dbt's own time (run_results.json), and the
    goals: new export <= 8 s, nothing new <= 5 s. The figures of all runs are checked against
    the pure-Python scorer after the first pair."""
    exclude = tuple(selector for selector in exclude if selector)
    settings = Settings(
        project_dir=project_dir.resolve(), template=template.resolve(),
        file_rows=(file_rows, file_rows), extra_rows=file_rows, seed=seed,
        faults=_faults(fault_share), repeat=1, run_python=True, python_max_rows=0,
        exclude=exclude, memory_limit=memory_limit, threads=threads, top=top,
        added_file_pairs=pairs, site=False,
    )
    root = workdir or Path(tempfile.mkdtemp(prefix="agent-scoring-bench-"))
    failed = False
    try:
        click.echo(f"== daily loop: {runs} runs of {file_rows} rows, one new export, "
                   f"{pairs} pairs ({root / 'daily'})")
        result = bench_daily(root / "daily", settings, runs, file_rows, pairs, click.echo)
        click.echo(format_daily(result, top))
        if json_path:
            _write_daily_json(json_path, settings, result)
    except BaseException:
        failed = True
        raise
    finally:
        if keep or failed:
            click.echo(f"work directory kept: {root}", err=True)
        elif workdir is None:
            shutil.rmtree(root, ignore_errors=True)
    if result.differences:
        raise click.ClickException("the warehouse and the pure-Python scorer disagree (above)")
    if result.failures:
        raise click.ClickException("some steps failed (above)")


def _write_daily_json(path: Path, settings: Settings, result: DailyResult) -> None:
    payload = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "pipeline": pipeline_version(settings.project_dir),
        "settings": {
            "runs": result.runs,
            "file_rows": result.file_rows,
            "pairs": settings.added_file_pairs,
            "seed": settings.seed,
            "template": str(settings.template),
            "exclude": list(settings.exclude),
            "memory_limit": settings.memory_limit,
            "threads": settings.threads,
        },
        "daily": result.as_dict(),
    }
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")


@main.command()
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@options("exclude", "project_dir")
def check(files: tuple[Path, ...], exclude: tuple[str, ...], project_dir: Path) -> None:
    """Build the warehouse on plan_agent FILES (copied to a temp dir) and check that the
    pure-Python scorer gives the same figures; print them side by side."""
    names = [path.name for path in files]
    for path in files:
        if agent_of(path) != "plan_agent":
            raise click.BadParameter(f"{path}: only plan_agent_*.csv files", param_hint="FILES")
    if len(set(names)) != len(names):
        raise click.BadParameter("two files share a name", param_hint="FILES")
    settings = Settings(
        project_dir=project_dir.resolve(), template=DEFAULT_TEMPLATE, file_rows=(1, 1),
        extra_rows=0, seed=0, faults=Faults(), repeat=1, run_python=True, python_max_rows=0,
        exclude=exclude, memory_limit=None, threads=None, top=0,
    )
    with tempfile.TemporaryDirectory(prefix="agent-scoring-check-") as tmp:
        runner = Runner(Path(tmp), settings)
        runner.input_dir.mkdir(parents=True)
        for path in files:
            shutil.copy(path, runner.input_dir / path.name)
        runner.dbt_build("build", Step("build", 0))
        python = score_files(sorted(runner.input_dir.glob("plan_agent_*.csv")),
                             load_rules(settings.project_dir))
        warehouse = warehouse_figures(runner.db)
    for name in sorted(python):
        click.echo(f"{name}")
        for label, figures in python[name]["rounds"].items():
            click.echo(
                f"  {label}: intent {figures['intent_score'] or 0:.4f}, mean seconds "
                f"{figures['mean_response_time_sec'] or 0:.3f} (band {figures['speed_points']}), "
                f"items {figures['item_count']}, errors {figures['error_count']}"
            )
        consistency = python[name]["consistency"]
        score = consistency["consistency_score"]
        click.echo(
            f"  consistency {score if score is None else f'{score:.4f}'} "
            f"(all pass {consistency['all_pass']}, all fail {consistency['all_fail']}, "
            f"mismatch {consistency['mismatch']} of {consistency['eligible_queries']})"
        )
    differences = compare(python, warehouse)
    if differences:
        click.echo("\n".join(differences))
        raise click.ClickException(f"{len(differences)} figures differ")
    click.echo("figures agree")


@main.command()
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--rows", type=int, default=SMOKE_ROWS, show_default=True)
@click.option("--file-rows", default="262-5000", show_default=True)
@options("fault_share", "seed", "template")
def generate(
    out_dir: Path, rows: int, file_rows: str, fault_share: float, seed: int, template: Path
) -> None:
    """Only write generated exports to OUT_DIR (as the benchmark would)."""
    written = generate_exports(
        template, out_dir, rows, _file_rows(file_rows), seed, _faults(fault_share)
    )
    for generated in written:
        click.echo(f"{generated.path}: {generated.rows} rows, {generated.size_bytes:,} bytes")


@main.command()
@click.option("--rows", type=int, default=100_000, show_default=True)
@click.option("--file-rows", default="262-5000", show_default=True)
@click.option("--extra-rows", type=int, default=262, show_default=True)
@options("seed", "template", "workdir", "project_dir")
def spark(rows, file_rows, extra_rows, seed, template, workdir, project_dir) -> None:
    """The same exports on DuckDB and on the spark target (docs/spark.md): clean build and
    +1 file, one engine after the other (needs pip install -e '.[spark]' and Java 17)."""
    from agent_bench.spark import compare_engines

    click.echo(f"== {rows:,} rows, DuckDB and Spark")
    figures = compare_engines(project_dir.resolve(), template.resolve(), rows,
                              _file_rows(file_rows), extra_rows, seed, workdir, click.echo)
    if not all(figure.ok for figure in figures):
        raise click.ClickException("a build failed (above)")


@main.command()
@options("project_dir")
def shape(project_dir: Path) -> None:
    """The project's shape (issue 72): loading Python lines, dbt nodes on the samples, the
    longest chain of models to set_scores, refs from below the marts to a mart."""
    dbt = str(Path(sys.executable).with_name("dbt"))
    click.echo("\n".join(measure_shape(project_dir, dbt).lines()))


@main.command()
@click.option("--rows", type=click.IntRange(2), default=100_000, show_default=True,
              help="Rows of the one export.")
@click.option("--invalid-byte", is_flag=True,
              help="Also a record with a byte that is not UTF-8 (the settle then reads the "
                   "file's bytes as DuckDB's escaped text of a blob).")
@options("seed", "template", "workdir", "project_dir")
def settle(rows: int, invalid_byte: bool, seed: int, template: Path, workdir: Path | None,
           project_dir: Path) -> None:
    """What staging's settle costs on one export DuckDB cannot read cleanly: the same
    export built alone twice (`dbt build --select +stg_exports__rows`, no tests), as
    generated and with a broken record in its middle; prints stg_exports__rows' time in each
    and the difference."""
    settings = Settings(
        project_dir=project_dir.resolve(), template=template.resolve(), file_rows=(rows, rows),
        extra_rows=0, seed=seed, faults=Faults(), repeat=1, run_python=False,
        python_max_rows=0, exclude=(), memory_limit=None, threads=None, top=0,
    )
    root = workdir or Path(tempfile.mkdtemp(prefix="agent-scoring-bench-"))
    try:
        bench_settle(root / "settle", settings, rows, invalid_byte, click.echo)
    finally:
        if workdir is None:
            shutil.rmtree(root, ignore_errors=True)
