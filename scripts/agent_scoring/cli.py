"""`score-report`: render markdown reports from the marts that `dbt build` made."""

from __future__ import annotations

from pathlib import Path

import click

from agent_scoring.db import WarehouseError, connect_read_only, default_db_path, require_tables
from agent_scoring.markdown import render
from agent_scoring.reports import registry


@click.group(invoke_without_command=True)
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
@click.pass_context
def main(
    ctx: click.Context,
    agents: tuple[str, ...],
    files: tuple[str, ...],
    out_dir: Path,
    to_stdout: bool,
    db_path: Path | None,
) -> None:
    """Render one markdown report per agent and source file from the scoring marts."""
    if ctx.invoked_subcommand is not None:
        return
    reporters = registry()
    unknown = [a for a in agents if a not in reporters]
    if unknown:
        raise click.BadParameter(
            f"unknown agent {unknown[0]!r}; known: {', '.join(sorted(reporters))}",
            param_hint="--agent",
        )
    path = db_path or default_db_path()
    try:
        con = connect_read_only(path)
    except WarehouseError as exc:
        raise click.ClickException(str(exc)) from exc
    written = 0
    with con:
        for name, reporter in reporters.items():
            if agents and name not in agents:
                continue
            try:
                require_tables(con, path, list(reporter.required_tables))
            except WarehouseError as exc:
                raise click.ClickException(str(exc)) from exc
            # --file narrows the list first, so the batched queries only read those files.
            selected = [f for f in reporter.sources(con) if not files or f in files]
            for source_file, context in zip(
                selected, reporter.contexts(con, selected), strict=True
            ):
                text = render(reporter.template, context)
                written += 1
                if to_stdout:
                    click.echo(text)
                    continue
                out_dir.mkdir(parents=True, exist_ok=True)
                target = out_dir / reporter.output_name(source_file)
                target.write_text(text, encoding="utf-8")
                click.echo(f"{target}: {reporter.summary(context)}")
    if written == 0:
        wanted = ", ".join([*agents, *files]) or "any agent"
        click.echo(f"no scored files for {wanted} in {path}; nothing written", err=True)


from agent_scoring.judge.cli import judge  # noqa: E402

main.add_command(judge)
