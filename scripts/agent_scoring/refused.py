"""Files that give no scored row (the rejected_files mart): each command names them on stderr
and exits 1 once it has written what it can. A refused file is the file's problem, never the
other files': their reports are written as usual."""

from __future__ import annotations

from dataclasses import dataclass

import click
import duckdb


@dataclass(frozen=True)
class Refused:
    agent: str
    source_file: str
    reason: str


def refused_files(con: duckdb.DuckDBPyConnection, agents: tuple[str, ...]) -> list[Refused]:
    """The selected agents' refused files (every agent's, and unclaimed files, when none is
    selected). A warehouse built before the mart existed has none to tell."""
    try:
        rows = con.execute(
            "select agent, source_file, reject_reason from rejected_files order by source_file"
        ).fetchall()
    except duckdb.CatalogException:
        return []
    return [Refused(*row) for row in rows if not agents or row[0] in agents]


def say_refused(refused: list[Refused]) -> None:
    for entry in refused:
        click.echo(f"refused {entry.source_file} ({entry.agent}): {entry.reason}", err=True)


def refused_error(refused: list[Refused]) -> click.ClickException:
    names = ", ".join(entry.source_file for entry in refused)
    return click.ClickException(
        f"{len(refused)} file(s) refused, not scored: {names} (rejected_files); "
        "the other files' results were written"
    )
