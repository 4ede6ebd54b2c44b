"""The README's and docs' SQL examples run against a built warehouse, and the README's
commands are the CI's."""

from __future__ import annotations

import functools
import json
import re

from support.warehouse import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
# the README and every page it links in docs/
DOCS = "\n".join([README, *(page.read_text(encoding="utf-8")
                            for page in sorted((REPO / "docs").glob("*.md")))])


def sql_blocks(history: bool = False) -> list[str]:
    """The README's SQL examples; `history`: those about run history (they need runs of one
    test set, which tests/test_run_history.py builds), else the others."""
    blocks = re.findall(r"```sql\n(.*?)```", DOCS, flags=re.DOTALL)
    return [b for b in blocks if b.startswith("-- history:") == history]


def test_readme_has_sql_examples():
    assert len(sql_blocks()) >= 4


def test_every_readme_sql_example_runs_and_returns_rows(con):
    for sql in sql_blocks():
        assert con.sql(sql).fetchall(), sql


def test_ci_runs_the_readme_test_command():
    test_command = re.search(r"# 2\. run every test.*?\n(.+)\n", README).group(1)
    assert test_command in (REPO / ".ci" / "run").read_text()


def test_the_readme_duckdb_cli_command_opens_the_warehouse(agent_warehouse):
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    block = re.search(r"```sh\npip install duckdb-cli==(\S+)\n(duckdb -readonly .+)\n```",
                      DOCS)
    cli = Path(sys.executable).with_name("duckdb")
    version = subprocess.run([str(cli), "--version"], capture_output=True, text=True)
    assert version.stdout.startswith(f"v{block.group(1)} ")
    command = shlex.split(block.group(2).replace("agent_scoring.duckdb",
                                                 str(agent_warehouse.db)))
    done = subprocess.run([str(cli), *command[1:]], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "plan_agent" in done.stdout and "url_agent" in done.stdout


def test_the_columns_an_agent_model_receives_are_those_the_readme_lists(con):
    block = re.search(r"The rule reads .*?```text\n(.*?)```", DOCS, flags=re.DOTALL).group(1)
    listed = [tuple(pair.split()) for pair in " ".join(block.split()).split(", ")]
    found = con.execute("select column_name, lower(data_type) from information_schema.columns "
                        "where table_name = 'int_exports__results' order by ordinal_position"
                        ).fetchall()
    assert listed == found


def test_the_readme_is_a_front_page_whose_links_resolve():
    assert len(README.splitlines()) <= 250
    for page in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (REPO / page).exists(), page
    for page in (REPO / "docs").glob("*.md"):
        for link in re.findall(r"\]\(([^)#:]+)", page.read_text(encoding="utf-8")):
            assert (page.parent / link).exists(), (page.name, link)


def test_the_readme_row_path_is_the_longest_chain_of_refs_to_set_scores(agent_warehouse):
    manifest = json.loads((agent_warehouse.work / "target" / "manifest.json").read_text(
        encoding="utf-8"))
    nodes = manifest["nodes"]
    parents = {node["name"]: [nodes[p]["name"] for p in node["depends_on"]["nodes"]
                              if p.startswith("model.")]
               for node in nodes.values() if node["resource_type"] == "model"}

    @functools.cache
    def longest(name: str) -> int:
        return 1 + max((longest(parent) for parent in parents[name]), default=0)

    block = re.search(r"path to `set_scores`.*?```\n(.*?)```", README, flags=re.DOTALL).group(1)
    chain = [step.split()[0] for step in block.replace("\n", " ").split("→")]
    assert chain[0] == "export_loads" and chain[-1] == "set_scores"
    for parent, child in zip(chain, chain[1:], strict=False):
        assert parent in parents[child], (parent, child)
    assert len(chain) == longest("set_scores")
