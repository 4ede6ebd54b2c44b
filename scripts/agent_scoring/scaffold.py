"""`score-report new-agent NAME`: the files a new agent needs, written from templates.

An agent is one registry entry in dbt_project.yml (vars.agents) and one folder
models/agents/<agent>/ with its item-score model and its YAML (README: "Adding an agent").
The templates use << >> delimiters, so the dbt Jinja they contain passes through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from jinja2 import Environment, PackageLoader, StrictUndefined

AGENT_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


class ScaffoldError(Exception):
    """The agent cannot be added as asked; the message says why and what to do."""


@dataclass(frozen=True)
class Written:
    files: list[Path]
    registry: Path


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("agent_scoring", "scaffold"),
        undefined=StrictUndefined,
        variable_start_string="<<",
        variable_end_string=">>",
        block_start_string="<%",
        block_end_string="%>",
        keep_trailing_newline=True,
    )


def registered_agents(project: Path) -> dict:
    config = yaml.safe_load((project / "dbt_project.yml").read_text(encoding="utf-8"))
    return (config.get("vars") or {}).get("agents") or {}


def with_registry_entry(text: str, entry: str) -> str:
    """dbt_project.yml with `entry` appended to the vars.agents mapping, comments kept."""
    lines = text.splitlines(keepends=True)
    start = next(
        (i for i, line in enumerate(lines) if re.match(r"^  agents:\s*(#.*)?$", line)), None
    )
    if start is None:
        raise ScaffoldError("dbt_project.yml has no `agents:` under `vars:`")
    end = start + 1
    while end < len(lines) and (
        not lines[end].strip() or lines[end].startswith("    ") or lines[end].startswith("#")
    ):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # keep the blank lines that separate the next setting
    if lines[end - 1] and not lines[end - 1].endswith("\n"):
        lines[end - 1] += "\n"
    return "".join(lines[:end]) + entry + "".join(lines[end:])


def new_agent(project: Path, agent: str, display_name: str) -> Written:
    if not AGENT_NAME.fullmatch(agent):
        raise ScaffoldError(
            f"{agent!r}: an agent name is lower-case snake_case such as toy_agent "
            "(it prefixes its files and models)"
        )
    config_path = project / "dbt_project.yml"
    if not config_path.exists():
        raise ScaffoldError(f"{project}: no dbt_project.yml here; run it from the project root")
    if agent in registered_agents(project):
        raise ScaffoldError(f"{agent} is already in vars.agents of {config_path}")
    folder = project / "models" / "agents" / agent
    if folder.exists():
        raise ScaffoldError(f"{folder} exists already; remove it or choose another name")

    env = environment()
    values = {"agent": agent, "display_name": display_name}
    original = config_path.read_text(encoding="utf-8")
    updated = with_registry_entry(
        original, env.get_template("registry_entry.yml.j2").render(values)
    )
    config_path.write_text(updated, encoding="utf-8")
    if agent not in registered_agents(project):  # never leave a broken project behind
        config_path.write_text(original, encoding="utf-8")
        raise ScaffoldError(f"could not add {agent} to vars.agents of {config_path}")

    folder.mkdir(parents=True)
    files = {
        folder / f"int_{agent}__item_scores.sql": "item_scores.sql.j2",
        folder / f"_{agent}__models.yml": "models.yml.j2",
    }
    for path, template in files.items():
        path.write_text(env.get_template(template).render(values), encoding="utf-8")
    return Written(files=list(files), registry=config_path)
