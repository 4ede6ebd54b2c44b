"""The benchmark's runs: the warehouse's fixed cost and how its cost grows with the data.

Fixed cost: on the bundled samples, a no-change `dbt build` + `score-report` against
`dbt run -s speed_bands` (dbt's own start-up, parse and one tiny model), interleaved.

Per size: generate exports, then time in separate child processes (so each step's peak RSS is
its own) the two floor queries, the pure-Python scorer (a reference and a cross-check of the
figures), a clean `dbt build` + `score-report` then `score-report site` on that warehouse
(with the first render of its largest run page in headless Chromium), the same build + report
with no input files, a build after one more 262-row file arrives, and a build with nothing new.

The daily loop (`bench_daily`): a warehouse of N runs of one test set, then interleaved pairs
of `dbt build` + `score-report` after one new export and with nothing new.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from agent_bench.dbt_floor import floor_command, write_floor_project
from agent_bench.generate import Faults, agent_of, generate_exports
from agent_bench.measure import Measured, read_run_results, run_measured
from agent_bench.pyscore import PROJECT_DIR, TOOLS_DIR, load_rules, score_files
from agent_bench.results import (
    SITE_STEP,
    DailyCase,
    DailyResult,
    FixedCost,
    SiteRun,
    SizeResult,
    Step,
)
from agent_bench.runbrowser import first_render, walk_site
from agent_bench.warehouse import compare, warehouse_figures

SAMPLES_DIR = PROJECT_DIR / "samples"
PACKAGE = "agent_bench"


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
    site: bool = True  # `score-report site` after the clean build, and its first render



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

    def site(self, step: Step, site: SiteRun, *args: str) -> None:
        """`score-report site` into base/site, then its files and the first render of its
        largest run page; not fatal, and a missing browser is only a figure left empty."""
        out = self.base / "site"
        cmd = [tool("score-report"), "site", "--out", str(out), "--db", str(self.db), *args]
        measured = self.run("score-report-site", cmd, fatal=False)
        step.runs.append(measured)
        if measured.returncode != 0 or not (out / "index.html").exists():
            return
        site.files = walk_site(out)
        if site.files.run_page is None:
            site.renders.append({"page": str(out / "index.html"), "reason": "no run page"})
        else:
            site.renders.append(first_render(out / site.files.run_page))

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
    site_step = Step(SITE_STEP, rows)
    site = SiteRun() if settings.site else None
    if site is None:
        site_step.note = "skipped"
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
        if site is not None:
            runner.site(site_step, site)
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
    steps = [floor_narrow, floor_full, python, clean, report, site_step, empty_clean,
             empty_report, added, noop]
    failures = runner.failures + empty.failures
    for failure in dict.fromkeys(failures):
        echo(f"  FAILED: {failure}")
    return SizeResult(
        rows, files, steps, differences, groups, runner.db.stat().st_size, failures, site
    )


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


def bench_daily(
    base: Path, settings: Settings, runs: int, file_rows: int, pairs: int, echo: Any
) -> DailyResult:
    """The team's daily loop: `runs` exports of `file_rows` rows, the same queries in each (one
    test set run day after day), built clean once; then `pairs` times, interleaved, one new
    export dropped in and `dbt build` + `score-report` (two processes, README command 1) until
    its report is written, and the same two with nothing new. Every timed +1 build starts from
    the same warehouse (the N runs, after a build that removed the new export): before the
    first pair the export is added and removed once, untimed, and after every pair it is
    removed and the warehouse rebuilt, untimed."""
    runner = Runner(base, settings)
    started = time.perf_counter()
    files = generate_exports(
        settings.template, base / "exports", (runs + 1) * file_rows, (file_rows, file_rows),
        settings.seed, settings.faults, same_queries=True,
    )
    daily, new = files[:runs], files[runs]
    runner.input_dir.mkdir(parents=True, exist_ok=True)
    for generated in daily:
        shutil.copy(generated.path, runner.input_dir / generated.path.name)
    queries = len({row["Query ID"] for row in _rows(new.path)})
    echo(f"  generated {len(files)} exports of {file_rows} rows (the same {queries} queries "
         f"in each; {runs} in the warehouse, 1 new) in {time.perf_counter() - started:.1f} s")
    rows = sum(f.rows for f in daily)
    new_target = runner.input_dir / new.path.name
    reports = base / "reports"
    new_report = reports / f"{new.path.stem}_score_summary.md"
    # the bench's convention: with RAG excluded its marts are not built, so one agent's reports
    agent = ("--agent", agent_of(settings.template)) if runner.exclude else ()
    clean = DailyCase(f"clean build of {runs} runs", rows,
                      Step(f"dbt build, clean ({runs} runs)", rows),
                      Step("score-report, clean", rows))
    added = DailyCase("new export", rows + new.rows,
                      Step(f"dbt build, new export ({new.rows} rows)", rows + new.rows),
                      Step("score-report, new export", rows + new.rows))
    noop = DailyCase("nothing new", rows + new.rows,
                     Step("dbt build, nothing new", rows + new.rows),
                     Step("score-report, nothing new", rows + new.rows))
    untimed = Step("untimed", rows)

    def loop(case: DailyCase, label: str) -> None:
        new_report.unlink(missing_ok=True)  # its report must be this step's
        runner.dbt_build(f"build-{label}", case.build)
        runner.score_report(f"score-report-{label}", case.report, *agent)
        if not new_report.exists():
            runner.failures.append(f"{label}: score-report wrote no {new_report.name}")

    runner.clean_warehouse()
    runner.dbt_build("build-clean", clean.build)
    runner.score_report("score-report-clean", clean.report, *agent)
    last = reports / f"{daily[-1].path.stem}_score_summary.md"
    if not last.exists():
        raise BenchError(f"the clean build's score-report wrote no {last.name} in {reports}")
    echo(f"  {clean.line()}")
    shutil.copy(new.path, new_target)
    runner.dbt_build("build-warmup-added", untimed)
    new_target.unlink()
    runner.dbt_build("build-warmup-removed", untimed)
    differences: list[str] | None = None
    for pair in range(pairs):
        shutil.copy(new.path, new_target)
        loop(added, "new-export")
        loop(noop, "nothing-new")
        if pair == 0:  # the warehouse's figures of all runs against the pure-Python scorer's
            expected = score_files(sorted(runner.input_dir.glob("*.csv")),
                                   load_rules(settings.project_dir))
            differences = compare(expected, warehouse_figures(runner.db))
        new_target.unlink()
        if pair < pairs - 1:
            runner.dbt_build("build-removed", untimed)
        echo(f"  pair {pair + 1}/{pairs}: new export {added.totals()[-1]:.2f} s, "
             f"nothing new {noop.totals()[-1]:.2f} s")
    for failure in dict.fromkeys(runner.failures):
        echo(f"  FAILED: {failure}")
    return DailyResult(runs, file_rows, queries, files, clean, added, noop, differences,
                       runner.db.stat().st_size, runner.failures)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))
