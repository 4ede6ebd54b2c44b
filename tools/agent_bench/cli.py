"""`scripts/bench`: the warehouse's fixed cost and how its cost grows with the data.

Fixed cost: on the bundled samples, a no-change `dbt build` + `score-report` against
`dbt run -s speed_bands` (dbt's own start-up, parse and one tiny model), interleaved.

Per size: generate exports, then time in separate child processes (so each step's peak RSS is
its own) the two floor queries, the pure-Python scorer (a reference and a cross-check of the
figures), a clean `dbt build` + `score-report`, the same with no input files, a build after
one more 262-row file arrives, and a build with nothing new.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from agent_bench.dbt_floor import floor_command, write_floor_project
from agent_bench.generate import (
    Faults,
    GeneratedFile,
    agent_of,
    generate_exports,
    parse_file_rows,
)
from agent_bench.measure import DbtTimings, Measured, read_run_results, run_measured
from agent_bench.pyscore import PROJECT_DIR, TOOLS_DIR, load_rules, score_files
from agent_bench.warehouse import compare, warehouse_figures

SAMPLES_DIR = PROJECT_DIR / "samples"
DEFAULT_TEMPLATE = SAMPLES_DIR / "plan_agent_sample.csv"
PACKAGE = "agent_bench"
SMOKE_ROWS = 1000
SMOKE_FILE_ROWS = "262-600"
# the targets of issue 15
FIXED_COST_MAX_RATIO = 2.0  # no-change build + report vs `dbt run -s speed_bands`
DATA_COST_MAX_RATIO = 1.5  # (clean build + report) - (the same, no input) vs the full floor
PEAK_RSS_MAX_MB = 4096
ADDED_FILE_MAX_EXTRA_S = 2.0  # build after one more file vs the no-change build
DATA_COST_FROM_ROWS = 100_000  # below, fixed costs dominate the difference: figure only


class BenchError(click.ClickException):
    """A step failed; the message names the step and ends with its log's tail."""


def tool(name: str) -> str:
    """A console script of this environment (dbt, score-report), else the one on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise click.ClickException(f"{name}: not found next to {sys.executable} or on PATH")
    return found


@dataclass
class Settings:
    project_dir: Path
    template: Path
    file_rows: tuple[int, int]
    extra_rows: int
    seed: int
    faults: Faults
    repeat: int
    run_python: bool
    python_max_rows: int
    exclude: tuple[str, ...]
    memory_limit: str | None
    threads: int | None
    top: int
    fixed_cost_pairs: int = 0
    added_file_pairs: int = 1


@dataclass
class Step:
    name: str
    rows: int
    runs: list[Measured] = field(default_factory=list)
    dbt: list[DbtTimings] = field(default_factory=list)
    inner_s: list[float] = field(default_factory=list)  # a floor's own query time
    note: str = ""

    @property
    def wall_s(self) -> float:
        return statistics.median(run.wall_s for run in self.runs)

    @property
    def core_s(self) -> float:
        """The query's own time for a floor (no process start-up), else the wall time."""
        return statistics.median(self.inner_s) if self.inner_s else self.wall_s

    @property
    def peak_rss_mb(self) -> float:
        return statistics.median(run.peak_rss_mb for run in self.runs)

    def median_dbt(self) -> DbtTimings:
        """The timings of the run whose dbt elapsed time is the median one."""
        ranked = sorted(self.dbt, key=lambda timings: timings.elapsed_s)
        return ranked[(len(ranked) - 1) // 2]

    @property
    def dbt_s(self) -> float | None:
        return statistics.median(t.elapsed_s for t in self.dbt) if self.dbt else None

    def as_dict(self, floor_s: float | None) -> dict[str, Any]:
        wall_s = self.wall_s if self.runs else None  # a skipped step has no runs
        return {
            "step": self.name,
            "rows": self.rows,
            "wall_s": wall_s,
            "wall_s_runs": [run.wall_s for run in self.runs],
            "query_s": statistics.median(self.inner_s) if self.inner_s else None,
            "peak_rss_mb": self.peak_rss_mb if self.runs else None,
            "dbt_elapsed_s": self.dbt_s,
            "ratio_to_floor": wall_s / floor_s if floor_s and wall_s else None,
            "dbt": [t.as_dict() for t in self.dbt],
            "note": self.note,
        }


@dataclass
class SizeResult:
    rows: int
    files: list[GeneratedFile]
    steps: list[Step]
    differences: list[str] | None  # None: not compared
    compared_groups: int
    db_bytes: int
    failures: list[str]

    @property
    def floor_s(self) -> float | None:
        """The full floor's query time: what the data costs at the least."""
        full = self.step("floor, full")
        return full.core_s if full and full.runs else None

    def step(self, prefix: str) -> Step | None:
        return next((s for s in self.steps if s.name.startswith(prefix)), None)

    def as_dict(self) -> dict[str, Any]:
        faults: Counter[str] = Counter()
        for generated in self.files:
            faults.update(generated.faults)
        return {
            "rows": self.rows,
            "files": len(self.files),
            "input_bytes": sum(f.size_bytes for f in self.files),
            "rows_by_kind": dict(faults),
            "db_bytes": self.db_bytes,
            "figures_agree": None if self.differences is None else not self.differences,
            "differences": self.differences,
            "failures": self.failures,
            "steps": [step.as_dict(self.floor_s) for step in self.steps],
            "targets": [target.as_dict() for target in size_targets(self)],
        }


class Runner:
    """Runs the steps of one size in its own directory with its own DB and dbt target."""

    def __init__(
        self, base: Path, settings: Settings, exclude: tuple[str, ...] | None = None
    ) -> None:
        self.base = base
        self.settings = settings
        self.exclude = settings.exclude if exclude is None else exclude
        self.input_dir = base / "input"
        self.db = base / "bench.duckdb"
        self.target = base / "target"
        self.env = dict(os.environ)
        # our own DB, target and logs: other people build the same project at the same time
        self.env.update(
            AGENT_SCORING_DB=str(self.db),
            AGENT_SCORING_INPUT_DIR=str(self.input_dir),
            DBT_TARGET_PATH=str(self.target),
            DBT_LOG_PATH=str(base / "logs"),
            DBT_SEND_ANONYMOUS_USAGE_STATS="false",
            # the project's own package: its loader runs inside dbt, so a --project-dir of
            # another version must not run this one's; then this bench's own tools, whose
            # floor and pyscore steps run as `python -m agent_bench...`
            PYTHONPATH=os.pathsep.join(filter(None, [
                str(settings.project_dir / "scripts"), str(TOOLS_DIR), os.environ.get("PYTHONPATH")
            ])),
        )
        if settings.memory_limit:
            self.env["AGENT_SCORING_MEMORY_LIMIT"] = settings.memory_limit
        if settings.threads:
            self.env["AGENT_SCORING_THREADS"] = str(settings.threads)
        self.runs = 0
        self.failures: list[str] = []

    def run(self, label: str, cmd: list[str], fatal: bool = True) -> Measured:
        """Run one step; a failed step that later steps need (fatal) stops the benchmark."""
        self.runs += 1
        log = self.base / "logs-bench" / f"{self.runs:02d}-{label}.log"
        measured = run_measured(cmd, log_path=log, env=self.env, cwd=self.settings.project_dir)
        if measured.returncode != 0:
            message = f"{label} failed (exit {measured.returncode}); log: {log}"
            if fatal:
                raise BenchError(f"{message}\n{measured.tail()}")
            self.failures.append(message)
        return measured

    def dbt(self, *args: str) -> list[str]:
        cmd = [tool("dbt"), *args, "--project-dir", str(self.settings.project_dir)]
        if "DBT_PROFILES_DIR" not in os.environ:
            cmd += ["--profiles-dir", str(self.settings.project_dir)]
        return cmd

    def dbt_build(self, label: str, step: Step) -> None:
        cmd = self.dbt("build")
        # an --exclude replaces the default selector, which leaves dbt's unit tests out
        for selector in (*self.exclude, "test_type:unit") if self.exclude else ():
            cmd += ["--exclude", selector]
        run_results = self.target / "run_results.json"
        run_results.unlink(missing_ok=True)
        step.runs.append(self.run(label, cmd))
        timings = read_run_results(run_results)
        if timings is not None:
            shutil.copy(run_results, self.base / "logs-bench" / f"{self.runs:02d}-{label}.json")
            step.dbt.append(timings)

    def score_report(self, label: str, step: Step, *args: str) -> None:
        cmd = [tool("score-report"), "--db", str(self.db), "--out", str(self.base / "reports")]
        # not fatal: nothing after it needs the reports
        step.runs.append(self.run(label, [*cmd, *args], fatal=False))

    def floor(self, step: Step, kind: str) -> None:
        out = self.base / f"floor-{kind}.json"
        cmd = [sys.executable, "-m", f"{PACKAGE}.floor", str(self.input_dir), "--out", str(out),
               "--kind", kind, "--db", str(self.base / "floor.duckdb")]
        step.runs.append(self.run(f"floor-{kind}", cmd))
        step.inner_s.append(json.loads(out.read_text(encoding="utf-8"))["query_s"])
        (self.base / "floor.duckdb").unlink(missing_ok=True)

    def pyscore(self, step: Step, out: Path) -> None:
        """This bench's pure-Python scorer, with the rules (seeds, vars) of the measured project."""
        cmd = [sys.executable, "-m", f"{PACKAGE}.pyscore", str(self.input_dir), "--out", str(out),
               "--project-dir", str(self.settings.project_dir)]
        step.runs.append(self.run("pyscore", cmd))

    def clean_warehouse(self) -> None:
        """A clean build: no database and no dbt target (so a full parse, as on a new machine)."""
        for path in (self.db, self.db.with_name(self.db.name + ".wal")):
            path.unlink(missing_ok=True)
        shutil.rmtree(self.target, ignore_errors=True)


def bench_size(rows: int, base: Path, settings: Settings, echo: Any) -> SizeResult:
    runner = Runner(base, settings)
    started = time.perf_counter()
    files = generate_exports(
        settings.template, runner.input_dir, rows, settings.file_rows, settings.seed,
        settings.faults,
    )
    # the file that "arrives" later: a real-sized set, generated apart so it can be added
    extra = generate_exports(
        settings.template, base / "extra", settings.extra_rows,
        (settings.extra_rows, settings.extra_rows), settings.seed + 1, settings.faults,
        first_index=len(files),
    )[0]
    megabytes = sum(f.size_bytes for f in files) / 1e6
    echo(
        f"  generated {rows:,} rows in {len(files)} files ({megabytes:,.0f} MB) "
        f"in {time.perf_counter() - started:.1f} s"
    )
    extra_target = runner.input_dir / extra.path.name
    with_extra = rows + extra.rows
    # the same build on no input: what the data costs is the difference
    empty = Runner(base / "no-input", settings)
    empty.input_dir.mkdir(parents=True, exist_ok=True)
    floor_narrow = Step("floor, narrow (4 columns, no table)", rows)
    floor_full = Step("floor, full (table on disk)", rows)
    python = Step("pure Python (reference)", rows)
    clean = Step("dbt build, clean", rows)
    report = Step("score-report", rows)
    empty_clean = Step("dbt build, clean, no input", 0)
    empty_report = Step("score-report, no input", 0)
    added = Step(f"dbt build, +1 file ({extra.rows} rows)", with_extra)
    noop = Step("dbt build, no new files", with_extra)
    run_python = settings.run_python and rows <= settings.python_max_rows
    if not run_python:
        python.note = "skipped"
    agent = ("--agent", agent_of(settings.template))  # excluded models (RAG) have no marts
    figures_path = base / "pyscore.json"
    differences: list[str] | None = None
    groups = 0
    for repetition in range(settings.repeat):
        extra_target.unlink(missing_ok=True)
        runner.floor(floor_narrow, "narrow")
        runner.floor(floor_full, "full")
        if run_python:
            runner.pyscore(python, figures_path)
        empty.clean_warehouse()
        empty.dbt_build("build-clean-no-input", empty_clean)
        empty.score_report("score-report-no-input", empty_report, *agent)
        runner.clean_warehouse()
        runner.dbt_build("build-clean", clean)
        runner.score_report("score-report", report, *agent)
        check = repetition == 0 and run_python
        if check:
            expected = json.loads(figures_path.read_text(encoding="utf-8"))["files"]
            differences = compare(expected, warehouse_figures(runner.db))
            groups = sum(len(f["rounds"]) for f in expected.values())
        shutil.copy(extra.path, extra_target)
        runner.dbt_build("build-added", added)
        if check and differences is not None:
            # an incremental build must end where a clean one would: old files + the new one
            expected |= score_files([extra_target], load_rules(settings.project_dir))
            differences += [
                f"after +1 file: {d}" for d in compare(expected, warehouse_figures(runner.db))
            ]
        runner.dbt_build("build-noop", noop)
        if check and differences is not None:
            differences += [
                f"after no-op: {d}" for d in compare(expected, warehouse_figures(runner.db))
            ]
        # more interleaved pairs: the file goes (a build, not measured) and comes back
        for _ in range(settings.added_file_pairs - 1):
            extra_target.unlink()
            runner.dbt_build("build-removed", Step("dbt build, file removed", rows))
            shutil.copy(extra.path, extra_target)
            runner.dbt_build("build-added", added)
            runner.dbt_build("build-noop", noop)
        echo(f"  run {repetition + 1}/{settings.repeat} done")
    steps = [floor_narrow, floor_full, python, clean, report, empty_clean, empty_report, added,
             noop]
    failures = runner.failures + empty.failures
    for failure in dict.fromkeys(failures):
        echo(f"  FAILED: {failure}")
    return SizeResult(
        rows, files, steps, differences, groups, runner.db.stat().st_size, failures
    )


@dataclass
class Target:
    name: str
    figure: str
    holds: bool | None  # None: the target does not apply here

    def line(self) -> str:
        verdict = {True: "meets", False: "MISSES", None: "figure only"}[self.holds]
        return f"target {self.name}: {self.figure} -> {verdict}"

    def as_dict(self) -> dict[str, Any]:
        return {"target": self.name, "figure": self.figure, "holds": self.holds}


def _measured(*steps: Step | None) -> bool:
    return all(step is not None and step.runs for step in steps)


def size_targets(result: SizeResult) -> list[Target]:
    """Targets 2 and 3 at one size, from the medians of its steps."""
    targets = []
    full = result.step("floor, full")
    clean, report = result.step("dbt build, clean"), result.step("score-report")
    empty_clean = result.step("dbt build, clean, no input")
    empty_report = result.step("score-report, no input")
    if _measured(full, clean, report, empty_clean, empty_report):
        data_s = (clean.wall_s + report.wall_s) - (empty_clean.wall_s + empty_report.wall_s)
        ratio = data_s / full.core_s
        targets.append(Target(
            f"data cost <= {DATA_COST_MAX_RATIO}x the full floor (at >= "
            f"{DATA_COST_FROM_ROWS:,} rows)",
            f"(clean build + report) - (the same, no input) = {clean.wall_s + report.wall_s:.2f}"
            f" - {empty_clean.wall_s + empty_report.wall_s:.2f} = {data_s:.2f} s = {ratio:.2f}x"
            f" the full floor ({full.core_s:.2f} s)",
            ratio <= DATA_COST_MAX_RATIO if result.rows >= DATA_COST_FROM_ROWS else None,
        ))
    steps = [s for s in result.steps if s.runs and not s.name.startswith(("floor", "pure"))]
    if steps:
        peak = max(steps, key=lambda s: s.peak_rss_mb)
        targets.append(Target(
            f"peak RSS <= {PEAK_RSS_MAX_MB:,} MB",
            f"{peak.peak_rss_mb:,.0f} MB ({peak.name})",
            peak.peak_rss_mb <= PEAK_RSS_MAX_MB,
        ))
    added, noop = result.step("dbt build, +1"), result.step("dbt build, no new")
    if _measured(added, noop):
        # the median of the pairs' differences: each pair ran back to back
        pairs = [a.wall_s - n.wall_s for a, n in zip(added.runs, noop.runs, strict=True)]
        extra_s = statistics.median(pairs)
        shown = (f"{added.wall_s:.2f} - {noop.wall_s:.2f} = {extra_s:+.2f} s" if len(pairs) == 1
                 else f"median of {len(pairs)} interleaved pairs {extra_s:+.2f} s (pairs: "
                      + ", ".join(f"{pair:+.2f}" for pair in pairs) + ")")
        targets.append(Target(
            f"+1 file <= no-change build + {ADDED_FILE_MAX_EXTRA_S:.0f} s",
            shown,
            extra_s <= ADDED_FILE_MAX_EXTRA_S,
        ))
    return targets


@dataclass
class FixedCost:
    """Interleaved pairs on the bundled samples: dbt alone, then a no-change build + report."""

    dbt_alone: Step = field(default_factory=lambda: Step("dbt run -s speed_bands", 0))
    build: Step = field(default_factory=lambda: Step("dbt build, no change (samples)", 0))
    report: Step = field(default_factory=lambda: Step("score-report (samples)", 0))
    # dbt's own floor (bench.dbt_floor): as many trivial views as the build has nodes
    floor_nodes: int = 0
    floor_one: Step = field(default_factory=lambda: Step("dbt run, 1 trivial view", 0))
    floor_all: Step = field(default_factory=lambda: Step("dbt run, N trivial views", 0))

    def ratios(self) -> list[float]:
        return [
            (build.wall_s + report.wall_s) / alone.wall_s
            for alone, build, report in zip(
                self.dbt_alone.runs, self.build.runs, self.report.runs, strict=True
            )
        ]

    def floor_ratios(self) -> list[float]:
        return [every.wall_s / one.wall_s
                for one, every in zip(self.floor_one.runs, self.floor_all.runs, strict=True)]

    def floor_line(self) -> str:
        ratios = self.floor_ratios()
        return (
            f"dbt's own floor: a no-change `dbt run` of {self.floor_nodes} trivial views (the "
            f"build's node count) vs one view: median {statistics.median(ratios):.2f}x "
            f"({self.floor_all.wall_s:.2f} s vs {self.floor_one.wall_s:.2f} s; pairs: "
            f"{', '.join(f'{r:.2f}' for r in ratios)})"
        )

    def target(self) -> Target:
        ratios = self.ratios()
        ratio = statistics.median(ratios)
        return Target(
            f"no-change build + report <= {FIXED_COST_MAX_RATIO:.0f}x `dbt run -s speed_bands`",
            f"median of {len(ratios)} interleaved pairs {ratio:.2f}x "
            f"(build {self.build.wall_s:.2f} s + report {self.report.wall_s:.2f} s vs "
            f"{self.dbt_alone.wall_s:.2f} s; pairs: {', '.join(f'{r:.2f}' for r in ratios)})",
            ratio <= FIXED_COST_MAX_RATIO,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "steps": [step.as_dict(None) for step in (self.dbt_alone, self.build, self.report)],
            "ratios": self.ratios(),
            "target": self.target().as_dict(),
            "dbt_floor": {
                "nodes": self.floor_nodes,
                "steps": [step.as_dict(None) for step in (self.floor_one, self.floor_all)],
                "ratios": self.floor_ratios(),
            },
        }


def bench_fixed_cost(base: Path, settings: Settings, echo: Any) -> FixedCost:
    """The README's main job on the bundled samples (every model, RAG included)."""
    runner = Runner(base, settings, exclude=())
    shutil.copytree(SAMPLES_DIR, runner.input_dir, dirs_exist_ok=True)
    runner.clean_warehouse()
    primed = Step("priming", 0)
    runner.dbt_build("build-clean-samples", primed)  # then every build below has no change
    runner.dbt_build("build-noop-samples", primed)
    fixed = FixedCost(floor_nodes=len(primed.dbt[-1].by_node))
    floor = write_floor_project(base / "dbt-floor", fixed.floor_nodes)
    dbt = tool("dbt")
    runner.run("dbt-floor-priming", floor_command(dbt, floor))
    for pair in range(settings.fixed_cost_pairs):
        alone = runner.dbt("run", "-s", "speed_bands")
        fixed.dbt_alone.runs.append(runner.run("dbt-speed-bands", alone))
        runner.dbt_build("build-noop-samples", fixed.build)
        runner.score_report("score-report-samples", fixed.report)
        fixed.floor_one.runs.append(
            runner.run("dbt-floor-one", floor_command(dbt, floor, "-s", "v_1")))
        fixed.floor_all.runs.append(runner.run("dbt-floor-all", floor_command(dbt, floor)))
        echo(f"  pair {pair + 1}/{settings.fixed_cost_pairs}: {fixed.ratios()[-1]:.2f}x "
             f"(dbt's own floor for as many nodes: {fixed.floor_ratios()[-1]:.2f}x)")
    for failure in dict.fromkeys(runner.failures):
        raise BenchError(failure)
    return fixed


def format_table(result: SizeResult) -> str:
    floor_s = result.floor_s
    lines = [
        f"{'step':<34} {'rows':>10} {'wall s':>8} {'dbt s':>7} {'peak RSS MB':>12} "
        f"{'x floor':>8}",
    ]
    for step in result.steps:
        if not step.runs:
            lines.append(f"{step.name:<34} {step.rows:>10,} {step.note:>8}")
            continue
        dbt_s = f"{step.dbt_s:.2f}" if step.dbt_s is not None else "-"
        ratio = f"{step.wall_s / floor_s:.1f}" if floor_s else "-"
        lines.append(
            f"{step.name:<34} {step.rows:>10,} {step.wall_s:>8.2f} {dbt_s:>7} "
            f"{step.peak_rss_mb:>12,.0f} {ratio:>8}"
        )
    return "\n".join(lines)


def format_findings(result: SizeResult, top: int) -> str:
    lines = []
    if result.differences is None:
        lines.append("figures: not compared (pure Python skipped)")
    elif not result.differences:
        lines.append(
            f"figures agree: pure Python = warehouse on {result.compared_groups} file x round "
            f"groups of {len(result.files)} files (clean build), and after each later build"
        )
    else:
        lines.append(f"figures differ ({len(result.differences)}):")
        lines += [f"  {line}" for line in result.differences[:20]]
    narrow, full = result.step("floor, narrow"), result.step("floor, full")
    if _measured(narrow, full):
        lines.append(f"floors (query time): narrow {narrow.core_s:.2f} s, full {full.core_s:.2f} s")
    python, clean = result.step("pure Python"), result.step("dbt build, clean")
    if _measured(python, clean):
        lines.append(
            f"pure Python (reference): {python.wall_s:.2f} s; clean dbt build {clean.wall_s:.2f} s"
        )
    lines += [target.line() for target in size_targets(result)]
    for name in ("dbt build, clean", "dbt build, +1", "dbt build, no new"):
        step = result.step(name)
        if step is None or not step.dbt:
            continue
        timings = step.median_dbt()
        kinds = ", ".join(f"{k} {s:.1f}" for k, s in sorted(timings.by_type.items()))
        models = ", ".join(f"{n} {s:.2f}" for n, s in timings.top_models(top))
        lines.append(f"{step.name}: dbt {timings.elapsed_s:.1f} s (summed: {kinds})")
        lines.append(f"  slowest models (s): {models}")
    return "\n".join(lines)


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"{text!r}: want comma-separated row counts") from exc
    if not sizes or min(sizes) < 1:
        raise click.BadParameter(f"{text!r}: want comma-separated positive row counts")
    return sizes


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
@click.option("--python-max-rows", type=int, default=10_000_000, show_default=True,
              help="Skip the pure-Python scorer above this many rows.")
@click.option("--fault-share", type=float, default=0.05, show_default=True,
              help="Share of generated rows made faulty (3/5 timeouts, 1/5 empty, 1/5 invalid "
                   "JSON) on top of the template's own faults.")
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--template", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=DEFAULT_TEMPLATE, show_default=True,
              help="Export to resample (its name gives the agent prefix).")
@click.option("--exclude", multiple=True, default=("tag:rag",), show_default=True,
              help="dbt --exclude selector (repeatable).")
@click.option("--memory-limit", default=None,
              help="DuckDB memory_limit for dbt (AGENT_SCORING_MEMORY_LIMIT).")
@click.option("--threads", type=int, default=None,
              help="DuckDB threads for dbt (AGENT_SCORING_THREADS).")
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where inputs, DBs and logs go [default: a new temp dir].")
@click.option("--keep", is_flag=True, help="Keep the work directory (kept anyway on failure).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write all figures (and dbt's per-node timings) here.")
@click.option("--fixed-cost-pairs", type=click.IntRange(0), default=5, show_default=True,
              help="Interleaved pairs (dbt alone, no-change build + report) on the bundled "
                   "samples; 0 skips the fixed-cost measurement (--smoke: 1).")
@click.option("--top", type=int, default=6, show_default=True,
              help="Slowest models to list per build.")
@click.option("--project-dir", type=click.Path(file_okay=False, path_type=Path),
              default=PROJECT_DIR, show_default=True, help="The dbt project.")
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
    cross-check), a clean `dbt build` + `score-report`, the same with no input files, a build
    after one more file arrives and a build with no new files; wall time, peak RSS, the ratio
    to the full floor, and each target with its verdict.

    \b
    Subcommands: `check FILE...` (same figures on given exports), `generate DIR`.
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
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--exclude", multiple=True, default=("tag:rag",), show_default=True,
              help="dbt --exclude selector (repeatable).")
@click.option("--project-dir", type=click.Path(file_okay=False, path_type=Path),
              default=PROJECT_DIR, show_default=True)
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
@click.option("--fault-share", type=float, default=0.05, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--template", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=DEFAULT_TEMPLATE, show_default=True)
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
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--template", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=DEFAULT_TEMPLATE, show_default=True)
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--project-dir", type=click.Path(file_okay=False, path_type=Path),
              default=PROJECT_DIR, show_default=True)
def spark(rows, file_rows, extra_rows, seed, template, workdir, project_dir) -> None:
    """The same exports on DuckDB and on the spark target (docs/spark.md): clean build and
    +1 file, one engine after the other (needs pip install -e '.[spark]' and Java 17)."""
    from agent_bench.spark import compare_engines

    click.echo(f"== {rows:,} rows, DuckDB and Spark")
    figures = compare_engines(project_dir.resolve(), template.resolve(), rows,
                              _file_rows(file_rows), extra_rows, seed, workdir, click.echo)
    if not all(figure.ok for figure in figures):
        raise click.ClickException("a build failed (above)")

