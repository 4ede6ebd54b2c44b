"""`score-report`: render markdown reports from the marts that `dbt build` made."""

from __future__ import annotations

import contextlib
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import click
from click.core import ParameterSource

from agent_scoring import history
from agent_scoring.db import (
    DamagedWarehouse,
    WarehouseError,
    damage_reported,
    damaged,
    default_db_path,
    is_damage,
    open_warehouse,
    require_tables,
)
from agent_scoring.markdown import render
from agent_scoring.output import remove_stale_reports, write_atomically, write_error
from agent_scoring.refused import refused_error, refused_files, say_refused
from agent_scoring.reports import Reporter, registry

# The other commands import what they need when they run: `score-report` right after
# `dbt build` should start fast.


SUBCOMMAND_ARGS = "agent_scoring.subcommand_args"


class LazyGroup(click.Group):
    """A group whose listed subcommands are imported only when invoked or listed."""

    lazy = {"judge": "agent_scoring.judge.cli"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            import importlib

            return getattr(importlib.import_module(self.lazy[name]), name)
        return super().get_command(ctx, name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = super().parse_args(ctx, args)
        ctx.meta[SUBCOMMAND_ARGS] = list(rest)  # cleared from ctx.args before the callback
        return rest


@click.group(cls=LazyGroup, invoke_without_command=True, epilog=(
    "Exit status, every subcommand: 0 done; 1 the data says no (a gate rule failed, a report "
    "not written, the warehouse missing, unfinished or damaged, a file or run not in it); "
    "2 a usage error (an unknown option, agent or value)."))
@click.option(
    "--agent", "agents", multiple=True, help="Only this agent (repeatable), e.g. plan_agent."
)
@click.option("--file", "files", multiple=True, help="Only this source file name (repeatable).")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("reports"),
    show_default=True,
    help="Directory for the reports.",
)
@click.option("--stdout", "to_stdout", is_flag=True, help="Print reports instead of writing files.")
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="DuckDB file built by dbt [default: $AGENT_SCORING_DB or agent_scoring.duckdb].",
)
@click.option(
    "--target",
    type=click.Choice(["duckdb", "spark"]),
    default="duckdb",
    show_default=True,
    help="Read the DuckDB file (--db), or what `dbt build --target spark` built, through "
    "the Spark session of the project's profiles.yml (--project).",
)
@click.option(
    "--project",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("."),
    show_default=True,
    help="With --target spark: the agent-scoring project (its profiles.yml).",
)
@click.pass_context
def main(
    ctx: click.Context,
    agents: tuple[str, ...],
    files: tuple[str, ...],
    out_dir: Path,
    to_stdout: bool,
    db_path: Path | None,
    target: str,
    project: Path,
) -> None:
    """Render one markdown report per agent and source file from the scoring marts."""
    if ctx.invoked_subcommand is not None:
        pass_options_to_subcommand(ctx)
        return
    path = db_path or default_db_path()
    files = tuple(unicodedata.normalize("NFC", name) for name in files)  # as the loader stores
    try:
        with opened(target, path, project) as con, damage_reported(path):
            written, failed, found = write_reports(con, path, agents, files, out_dir, to_stdout)
            refused = [entry for entry in refused_files(con, agents)
                       if not files or entry.source_file in files]
    except WarehouseError as exc:
        raise click.ClickException(str(exc)) from exc
    say_refused(refused)
    if failed:
        raise click.ClickException(
            f"{len(failed)} report(s) failed: {', '.join(failed)}; the others were written"
        )
    missing = [f for f in files if f not in found and f not in {r.source_file for r in refused}]
    if missing:
        scope = f" of {', '.join(agents)}" if agents else ""
        raise click.ClickException(
            f"no scored file{scope} named {', '.join(missing)} in {path} "
            "(a file name as in input_files.source_file, without its folder)"
        )
    if written == 0:
        wanted = ", ".join([*agents, *files]) or "any agent"
        click.echo(f"no scored files for {wanted} in {path}; nothing written", err=True)
    if refused:
        raise refused_error(refused)


def opened(target: str, path: Path, project: Path):
    """The warehouse to read: the DuckDB file, or the spark target's tables."""
    if target == "spark":
        from agent_scoring.spark import open_spark_warehouse

        return open_spark_warehouse(project)
    return open_warehouse(path)


def write_reports(
    con, path: Path, agents: tuple[str, ...], files: tuple[str, ...], out_dir: Path,
    to_stdout: bool,
) -> tuple[int, list[str], set[str]]:
    """Write (or print) every selected report: (reports written, files whose report failed,
    files found). One failed report never stops the others; a damaged warehouse stops all."""
    reporters = registry(con)
    if not set(reporters) - {"rag"} and "rag" not in agents:
        # a warehouse never built for the agents (a `--select tag:rag` build is fine)
        require_tables(con, path, ["agents"])
    unknown = [a for a in agents if a not in reporters]
    if unknown:
        raise click.BadParameter(
            f"unknown agent {unknown[0]!r}; known: {', '.join(sorted(reporters))}",
            param_hint="--agent",
        )
    written, failed, found, names = 0, [], set(), []
    for name, reporter in reporters.items():
        if agents and name not in agents:
            continue
        require_tables(con, path, list(reporter.required_tables))
        # --file narrows the list first, so the batched queries only read those files.
        selected = [f for f in reporter.sources(con) if not files or f in files]
        found.update(selected)
        for source_file, context, text, error in rendered(con, reporter, selected):
            if error is not None:
                if is_damage(error):
                    raise damaged(path, error)
                failed.append(source_file)
                click.echo(f"{source_file}: report failed ({describe(error)})", err=True)
                continue
            if to_stdout:
                written += 1
                click.echo(text)
                continue
            target = out_dir / reporter.output_name(source_file)
            try:
                write_atomically(target, text)
            except OSError as exc:  # the other reports are still written; exit 1
                failed.append(source_file)
                click.echo(write_error(target, exc), err=True)
                continue
            written += 1
            names.append(target.name)
            click.echo(f"{target}: {reporter.summary(context)}")
    if not to_stdout:
        # a report whose export left the input folder goes with it (only after a whole run,
        # and only reports this command wrote)
        whole = not agents and not files and not failed
        for gone in remove_stale_reports(out_dir, names, whole):
            click.echo(f"{gone}: removed (its export is no longer in the warehouse)")
    return written, failed, found


def pass_options_to_subcommand(ctx: click.Context) -> None:
    """An option given before the subcommand means what it means after it (`--db X check`
    is `check --db X`). One the subcommand does not take, or given on both sides, is a usage
    error: a gate must never read a warehouse the user did not name."""
    name = ctx.invoked_subcommand
    command = ctx.command.get_command(ctx, name)
    takes = {param.name: param for param in command.params if isinstance(param, click.Option)}
    inherited = {}
    for param in ctx.command.params:
        if ctx.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
            continue
        flag, theirs = param.opts[0], takes.get(param.name)
        if theirs is None:
            raise click.UsageError(f"{flag} does not apply to `{name}`", ctx)
        if any(arg in theirs.opts or arg.startswith(tuple(f"{o}=" for o in theirs.opts))
               for arg in ctx.meta[SUBCOMMAND_ARGS]):
            raise click.UsageError(
                f"{flag} is given both before and after `{name}`: give it once", ctx)
        inherited[param.name] = ctx.params[param.name]
    ctx.default_map = {name: inherited}


def rendered(
    con, reporter: Reporter, source_files: list[str]
) -> Iterator[tuple[str, dict | None, str | None, Exception | None]]:
    """(file, context, markdown, None) per file, or (file, None, None, error) for a file whose
    report cannot be made: one bad file never stops the others."""
    try:
        contexts: list[dict | None] = reporter.contexts(con, source_files)
    except Exception:  # noqa: BLE001 - the batch failed: find the file by building each alone
        contexts = [None] * len(source_files)
    for source_file, context in zip(source_files, contexts, strict=True):
        try:
            context = context or reporter.contexts(con, [source_file])[0]
            yield source_file, context, render(reporter.template, context), None
        except Exception as exc:  # noqa: BLE001 - reported per file, exit status 1 at the end
            yield source_file, None, None, exc


def describe(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


DB_OPTION = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="DuckDB file built by dbt [default: $AGENT_SCORING_DB or agent_scoring.duckdb].",
)
RUN_OPTIONS = [
    click.option("--agent", "agents", multiple=True,
                 help="Only this agent (repeatable); default: every agent."),
    click.option("--head", default=None,
                 help="The run to look at (a source_file); default: each agent's latest run."),
    click.option("--base", default=None,
                 help="The run to compare it with; default: the head's previous run."),
    DB_OPTION,
]


def run_options(command):
    for option in reversed(RUN_OPTIONS):
        command = option(command)
    return command


class GateError(click.ClickException):
    """A thresholds file the gate cannot use: a usage error, exit status 2."""

    exit_code = 2


@contextlib.contextmanager
def history_warehouse(db_path: Path | None):
    """The warehouse, read-only, with the run-history marts; one line (exit 1) when it is
    not."""
    path = db_path or default_db_path()
    try:
        con = open_warehouse(path)
        require_tables(con, path, ["agents", "runs", "item_changes", "run_trends"])
    except WarehouseError as exc:
        raise click.ClickException(str(exc)) from exc
    with con:
        try:
            with damage_reported(path):
                yield con
        except DamagedWarehouse as exc:
            raise click.ClickException(str(exc)) from exc


@main.command()
@run_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("reports"), show_default=True, help="Directory for the reports.")
@click.option("--stdout", "to_stdout", is_flag=True, help="Print instead of writing files.")
@click.option("--runs", "trend_runs", type=click.IntRange(min=2), default=history.TREND_RUNS,
              show_default=True, help="Runs in the trend chart.")
def compare(agents, head, base, db_path, out_dir, to_stdout, trend_runs) -> None:
    """Compare a run with the one before it: what regressed, improved, got slower.

    Writes reports/<head file stem>_compare.md per agent (its latest run against its
    previous run, by default)."""
    from agent_scoring.reports import compare as compare_report

    with history_warehouse(db_path) as con:
        try:
            pairs = history.select_pairs(con, agents, base, head)
        except history.RunNotFound as exc:  # not found: 1, as a --file not found
            raise click.ClickException(str(exc)) from exc
        except history.SelectionError as exc:
            raise click.UsageError(str(exc)) from exc
        failed = []
        for pair in pairs:
            context = compare_report.context(con, pair, trend_runs)
            text = render("compare_report.md.j2", context)
            if to_stdout:
                click.echo(text)
                continue
            target = out_dir / compare_report.output_name(pair)
            try:
                write_atomically(target, text)
            except OSError as exc:
                failed.append(pair.head["source_file"])
                click.echo(write_error(target, exc), err=True)
                continue
            click.echo(f"{target}: {compare_report.summary(context)}")
        refused = refused_files(con, agents)
    say_refused(refused)
    if failed:
        raise click.ClickException(
            f"{len(failed)} report(s) failed: {', '.join(failed)}; the others were written"
        )
    if refused:
        raise refused_error(refused)


@main.command()
@run_options
@click.option("--thresholds", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="YAML file of rules (see README: the CI gate).")
@click.option("--min-intent", type=float, help="Head run's 의도 충족 at least this.")
@click.option("--min-accuracy", type=float, help="Head run's 정확성 at least this.")
@click.option("--min-stability", type=float, help="Head run's 안정성 at least this.")
@click.option("--min-consistency", type=float, help="Head run's 일관성 at least this.")
@click.option("--max-regressions", type=click.IntRange(min=0),
              help="At most this many items passing in the base run and failing in the head.")
@click.option("--max-p90-latency-increase", type=float,
              help="At most this percent more p90 latency than the base run, per rubric.")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True),
              help="Fail on a significant drop of any metric at this level (e.g. 0.05), "
                   "not on noise: see README, the CI gate.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def check(agents, head, base, db_path, thresholds, output, **options) -> None:
    """CI gate: exit 0 when every rule holds; 1 when one fails, or when the warehouse or a
    run cannot be read (the line says which); 2 on a usage error. Prints every rule with its
    figure and PASS/FAIL (or SKIP without a base run)."""
    from agent_scoring import gate

    given = {name: value for name, value in options.items() if value is not None}
    try:
        from_file = gate.load_thresholds(thresholds)
    except gate.ThresholdError as exc:
        raise GateError(str(exc)) from exc
    if not given and not any(from_file.values()):
        raise click.UsageError("no rules: give --min-intent … options or --thresholds FILE")
    with history_warehouse(db_path) as con:
        try:
            pairs = history.select_pairs(con, agents, base, head)
        except history.RunNotFound as exc:  # not found: 1, as a --file not found
            raise click.ClickException(str(exc)) from exc
        except history.SelectionError as exc:
            raise click.UsageError(str(exc)) from exc
        results = [
            result
            for pair in pairs
            for result in gate.evaluate(con, pair, gate.rules_for(pair.agent, from_file, given))
        ]
        refused = refused_files(con, agents)
    if output == "json":
        click.echo(json.dumps(gate.as_json(results), ensure_ascii=False, indent=2, default=str))
    else:
        for result in results:
            click.echo(f"{result.status.upper():4}  {result.agent}  {result.head_file}  "
                       f"{result.rule.replace('_', '-')}: {result.detail}")
        failed = sum(r.status == "fail" for r in results)
        click.echo(f"{'FAIL' if failed else 'PASS'}: {failed} of {len(results)} rules failed")
    say_refused(refused)
    if any(r.status == "fail" for r in results) or refused:
        raise SystemExit(1)


@main.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("site"), show_default=True, help="Directory for the site.")
@DB_OPTION
@click.option("--agent", "agents", multiple=True,
              help="Only this agent (repeatable), e.g. plan_agent; default: every agent.")
@click.option("--compare", "pairs", nargs=2, multiple=True, metavar="HEAD BASE",
              help="Also a compare page of these two runs (repeatable); each run and the "
                   "one before it always get one.")
@click.option("--serve", is_flag=True, help="Then serve it on 127.0.0.1 until Ctrl-C.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="With --serve: the port (0: any free port).")
def site(out_dir: Path, db_path: Path | None, agents: tuple[str, ...],
         pairs: tuple[tuple[str, str], ...], serve: bool, port: int) -> None:
    """Write the run browser: static pages of every run, item and comparison (docs/site.md).

    Opens from file:// or any web server; --serve serves it on 127.0.0.1."""
    from agent_scoring.site.build import build

    path = db_path or default_db_path()
    try:
        with open_warehouse(path) as con, damage_reported(path):
            require_tables(con, path, ["agents", "runs", "report_site_items",
                                       "report_site_checks"])
            try:
                written = build(con, out_dir, agents, echo=click.echo, pairs=pairs)
            except history.RunNotFound as exc:  # not found: 1, as in `compare`
                raise click.ClickException(str(exc)) from exc
            except history.SelectionError as exc:
                raise click.UsageError(str(exc)) from exc
            except LookupError as exc:
                raise click.BadParameter(str(exc), param_hint="--agent") from exc
            except (FileExistsError, OSError) as exc:
                raise click.ClickException(str(exc)) from exc
            refused = refused_files(con, agents)
    except WarehouseError as exc:
        raise click.ClickException(str(exc)) from exc
    largest, size = written.largest()
    click.echo(f"{out_dir}/index.html: {len(written.runs)} runs, {len(written.written)} files, "
               f"largest {largest} ({size / 1024:.0f} kB)")
    say_refused(refused)
    if written.failed:
        raise click.ClickException(f"{len(written.failed)} run page(s) failed: "
                                   f"{', '.join(written.failed)}; the others were written")
    if serve:
        from agent_scoring.site.serve import server

        httpd = server(out_dir, port)
        click.echo(f"serving http://127.0.0.1:{httpd.server_address[1]}/ (Ctrl-C stops)")
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            httpd.server_close()
    if refused:
        raise refused_error(refused)


@main.command("spark-copy")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("spark_copy.duckdb"), show_default=True,
              help="The DuckDB file to write (replaced).")
@click.option(
    "--project",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The agent-scoring project (its profiles.yml names the spark target).",
)
def spark_copy(out: Path, project: Path) -> None:
    """Copy what `dbt build --target spark` built into a DuckDB file, which every other
    command then reads with --db OUT (docs/spark.md)."""
    from agent_scoring.spark import copy_warehouse, spark_session

    copied = copy_warehouse(spark_session(project), out)
    if not copied:
        raise click.ClickException("the spark target holds no table: run "
                                   "`dbt build --target spark` first")
    click.echo(f"{out}: {len(copied)} tables and views of the spark target")


@main.command("new-agent")
@click.argument("agent")
@click.option("--display-name", default=None, help="How reports name it [default: AGENT].")
@click.option(
    "--project",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The agent-scoring project (where dbt_project.yml is).",
)
def new_agent_command(agent: str, display_name: str | None, project: Path) -> None:
    """Add AGENT: its registry entry in dbt_project.yml and models/agents/AGENT/."""
    from agent_scoring.scaffold import ScaffoldError, new_agent

    try:
        written = new_agent(project, agent, display_name or agent)
    except ScaffoldError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{written.registry}: {agent} added to vars.agents")
    for path in written.files:
        click.echo(f"{path}: written")
    click.echo(
        f"next: write its rule in {written.files[0].name}, put {agent}_*.csv exports in the "
        "input directory, then `dbt build && score-report --agent " + agent + "`"
    )

