"""The project's shape, as issue 72 counts it: the Python that loads files, the longest chain of
models from a file to `set_scores`, the nodes a build runs on the samples, and refs that run
backwards (a model below the marts reading a mart). From dbt's own listing (`dbt ls`), so it
counts what dbt builds, not what the folders hold."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# the Python whose work is getting files into DuckDB (issue 72: from 2,056 lines to <= 500)
LOADING_PYTHON = ("scripts/agent_scoring/loader/*.py", "scripts/agent_scoring/record_count.py",
                  "scripts/agent_scoring/xlsx.py", "scripts/agent_scoring/dbt_plugin.py",
                  "models/**/*.py")
BUILT = ("model", "seed", "test")
LAYERS_BELOW_MARTS = ("models/staging/", "models/intermediate/")


@dataclass
class Shape:
    loading_lines: dict[str, int]
    nodes: dict[str, int]
    chain: list[str]
    backward_refs: list[tuple[str, str]]

    def lines(self) -> list[str]:
        return [
            f"loading Python: {sum(self.loading_lines.values()):,} lines in "
            f"{len(self.loading_lines)} files (issue 72: <= 500)",
            f"dbt nodes on the samples: {sum(self.nodes.values())} "
            f"({', '.join(f'{n} {kind}s' for kind, n in sorted(self.nodes.items()))}; "
            "issue 72: <= 200)",
            f"longest chain to set_scores: {len(self.chain)} models (issue 72: <= 9)",
            f"  {' -> '.join(self.chain)}",
            f"refs from below the marts to a mart: {len(self.backward_refs)}"
            + "".join(f"\n  {child} reads {parent}" for child, parent in self.backward_refs),
        ]


def loading_lines(project: Path) -> dict[str, int]:
    files = sorted({path for pattern in LOADING_PYTHON for path in project.glob(pattern)})
    return {str(path.relative_to(project)): len(path.read_text("utf-8").splitlines())
            for path in files}


def listed_nodes(project: Path, dbt: str) -> list[dict]:
    """dbt's listing of the models, seeds and tests a plain `dbt build` runs."""
    proc = subprocess.run(
        [dbt, "ls", "--resource-type", *BUILT, "--output", "json", "--output-keys",
         "unique_id resource_type original_file_path depends_on", "--quiet"],
        cwd=project, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def longest_chain(nodes: list[dict], end: str = "model.agent_scoring.set_scores") -> list[str]:
    """The longest path of models (a loader model included) that ends at `end`."""
    parents = {node["unique_id"]: [parent for parent in node["depends_on"]["nodes"]
                                   if parent.startswith("model.")]
               for node in nodes if node["resource_type"] == "model"}

    @cache
    def longest(unique_id: str) -> tuple[str, ...]:
        paths = [longest(parent) for parent in parents.get(unique_id, [])]
        return (*max(paths, key=len, default=()), unique_id)

    return [unique_id.split(".")[-1] for unique_id in longest(end)]


def backward_refs(nodes: list[dict]) -> list[tuple[str, str]]:
    path_of = {node["unique_id"]: node["original_file_path"] for node in nodes}
    return sorted(
        (node["unique_id"].split(".")[-1], parent.split(".")[-1])
        for node in nodes
        if node["resource_type"] == "model"
        and node["original_file_path"].startswith(LAYERS_BELOW_MARTS)
        for parent in node["depends_on"]["nodes"]
        if path_of.get(parent, "").startswith("models/marts/"))


def measure_shape(project: Path, dbt: str) -> Shape:
    nodes = listed_nodes(project, dbt)
    counts: dict[str, int] = {}
    for node in nodes:
        counts[node["resource_type"]] = counts.get(node["resource_type"], 0) + 1
    return Shape(loading_lines(project), counts, longest_chain(nodes), backward_refs(nodes))
