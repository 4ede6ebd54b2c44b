"""docs/adding-an-agent.md, followed literally in a copy of the project (issue 12).

A toy agent is added with `score-report new-agent` (whose files the README shows verbatim)
and its exports; `dbt build` and `score-report` then find it everywhere - the agents mart,
every shared mart, dbt docs' manifest, its report - while the other agents' rows are left
as they were. Editing one agent's rule seed re-scores only that agent; a shared rule, all.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import duckdb
import pytest
import yaml
from agent_scoring.cli import main
from agent_scoring.scaffold import environment
from click.testing import CliRunner
from support.markdown import tables
from support.warehouse import REPO, SAMPLES, WITHOUT_DATA_TESTS, dbt_env, run_dbt
from support.xlsx import read_csv, write_xlsx

AGENT, DISPLAY = "toy_agent", "토이 에이전트"
GUIDE = (REPO / "docs" / "adding-an-agent.md").read_text(encoding="utf-8")
OTHERS = ("plan_agent", "resume_agent", "url_agent")
AGENTS_BEFORE = sorted(yaml.safe_load((REPO / "dbt_project.yml").read_text(encoding="utf-8"))
                       ["vars"]["agents"])
SHARED_MARTS = ("item_scores", "round_scores", "set_scores", "consistency",
                "query_consistency", "input_files")


def readme_section() -> str:
    return GUIDE


def readme_blocks() -> list[str]:
    """The registry entry, the model and its YAML, as the README shows them."""
    blocks = re.findall(r"```(?:yaml|jinja)\n(.*?)```", readme_section(), flags=re.DOTALL)
    # the router agent's entry is the guide's example of a declared export shape
    return [textwrap.dedent(block) for block in blocks if "router_agent:" not in block]


def scaffold(template: str) -> str:
    return environment().get_template(template).render(agent=AGENT, display_name=DISPLAY)


def test_the_readme_shows_exactly_the_files_new_agent_writes():
    entry, model, yaml_text = readme_blocks()
    assert textwrap.dedent(scaffold("registry_entry.yml.j2")) == entry
    assert scaffold("item_scores.sql.j2") == model
    assert scaffold("models.yml.j2") == yaml_text
    command = re.search(r"```sh\n(score-report new-agent .*)\n```", readme_section()).group(1)
    assert command == f'score-report new-agent {AGENT} --display-name "{DISPLAY}"'


def project_copy(target: Path) -> Path:
    """The repository's tracked files, as a fresh clone has them."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def build(project: Path, env: dict[str, str], *extra: str) -> str:
    proc = run_dbt(["build", "--exclude", "tag:rag", *extra], env, cwd=project)
    assert proc.returncode == 0, proc.stdout[-5000:]
    return proc.stdout


def scored_rows(db: Path) -> dict[tuple, object]:
    with duckdb.connect(str(db), read_only=True) as con:
        found = con.execute(
            "select agent, source_file, record_no, scored_at from item_scores"
        ).fetchall()
    return {row[:3]: row[3] for row in found}


def scored_at_by_agent(rows: dict[tuple, object]) -> dict[str, set]:
    result: dict[str, set] = {}
    for (agent, _, _), when in rows.items():
        result.setdefault(agent, set()).add(when)
    return result


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    """Build without the toy agent, add it as the README says, build again; then edit one
    agent's rule seed, then a shared rule. Each step's item_scores rows are kept."""
    work = tmp_path_factory.mktemp("adding_an_agent")
    project = project_copy(work / "project")
    inputs = work / "input"
    inputs.mkdir()
    for name in ("plan_agent_sample.csv", "resume_agent_sample.csv", "url_agent_sample.csv"):
        shutil.copy(SAMPLES / name, inputs / name)
    db = work / "warehouse.duckdb"
    env = dbt_env(inputs, db, work, artifacts=True)  # the manifest: dbt docs
    taken = {}
    # the data tests (the toy agent's rows against the contract) run on the build that adds
    # it; the others' subject is which rows they re-score
    build(project, env, *WITHOUT_DATA_TESTS)
    taken["before"] = scored_rows(db)

    # README step 1-3: the command writes the registry entry and the two files
    result = CliRunner().invoke(main, ["new-agent", AGENT, "--display-name", DISPLAY,
                                       "--project", str(project)])
    assert result.exit_code == 0, result.output
    # README step 4: its exports (the URL sample has the export layout; the platform's xlsx
    # export too), then build
    shutil.copy(SAMPLES / "url_agent_sample.csv", inputs / f"{AGENT}_sample.csv")
    write_xlsx(inputs / f"{AGENT}_platform.xlsx", *read_csv(SAMPLES / "url_agent_sample.csv"))
    build(project, env)
    taken["added"] = scored_rows(db)

    phrases = project / "seeds" / "resume_partial_phrases.csv"
    phrases.write_text(phrases.read_text(encoding="utf-8") + "말씀해 주세요\n", encoding="utf-8")
    build(project, env, *WITHOUT_DATA_TESTS)
    taken["agent_rule"] = scored_rows(db)

    build(project, env, *WITHOUT_DATA_TESTS,
          "--vars", "{speed_rubrics: {single: [4, 8, 10, 15, 20], multi: [20, 30, 40, 50, 60]}}")
    taken["shared_rule"] = scored_rows(db)
    return project, work, db, taken


def test_new_agent_writes_two_files_and_one_registry_entry(steps):
    project, *_ = steps
    changed = subprocess.run(
        ["git", "diff", "--no-index", "--numstat", str(REPO / "dbt_project.yml"),
         str(project / "dbt_project.yml")], capture_output=True, text=True)
    added, removed = changed.stdout.split()[:2]
    assert (int(added), int(removed)) == (5, 0)
    folder = project / "models" / "agents" / AGENT
    files = sorted(p.name for p in folder.iterdir())
    assert files == [f"_{AGENT}__models.yml", f"int_{AGENT}__item_scores.sql"]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in folder.iterdir())
    assert lines + 5 <= 80


def test_the_toy_agent_is_in_the_agents_mart_and_every_shared_mart(steps):
    _, _, db, _ = steps
    with duckdb.connect(str(db), read_only=True) as con:
        agent = con.execute("select display_name, file_patterns from agents where agent = ?",
                            [AGENT]).fetchall()
        assert agent == [(DISPLAY, [f"{AGENT}_*.csv", f"{AGENT}_*.xlsx"])]
        scored = con.execute("select source_file, count(*) from item_scores where agent = ? "
                             "group by all order by all", [AGENT]).fetchall()
        assert scored == [(f"{AGENT}_platform.xlsx", 32), (f"{AGENT}_sample.csv", 32)]
        for mart in SHARED_MARTS:
            found = con.execute(f"select count(*) from {mart} where agent = ?", [AGENT]).fetchone()
            assert found[0] > 0, mart


def test_the_toy_agent_is_in_dbt_docs_manifest(steps):
    _, work, _, _ = steps
    manifest = json.loads((work / "target" / "manifest.json").read_text(encoding="utf-8"))
    node = manifest["nodes"][f"model.agent_scoring.int_{AGENT}__item_scores"]
    assert node["description"].startswith(DISPLAY)
    assert "unit_test.agent_scoring.int_toy_agent__item_scores." \
           "test_toy_agent_rule_scores_a_quoted_expectation_5" in manifest["unit_tests"]


def test_the_toy_agent_gets_the_generic_report(steps, tmp_path):
    _, _, db, _ = steps
    result = CliRunner().invoke(main, ["--db", str(db), "--agent", AGENT, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = (tmp_path / f"{AGENT}_sample_score_summary.md").read_text(encoding="utf-8")
    assert report.startswith(f"# {DISPLAY} 스코어링 리포트\n- 데이터: `{AGENT}_sample.csv`")
    headline = next(t for t in tables(report) if t[0][:2] == ["구분", "문항 수"])
    assert [row[0] for row in headline[1:]] == ["1/1", "2/1", "세트"]
    for heading in ("### 반복 재현 필요 질문", "### 안정성 실패(에러) 패턴", "## 데이터 품질",
                    "### 속도 분포"):
        assert heading in report


def test_adding_an_agent_leaves_the_other_agents_rows_as_they_were(steps):
    *_, taken = steps
    before, added = taken["before"], taken["added"]
    # every row is scored again (a registry edit is a rule edit), none lost or added
    assert {k for k in added if k[0] in OTHERS} == set(before)
    assert any(k[0] == AGENT for k in added)


def test_editing_one_agents_rule_seed_rescores_that_agent(steps):
    *_, taken = steps
    added, after = scored_at_by_agent(taken["added"]), scored_at_by_agent(taken["agent_rule"])
    assert after["resume_agent"].isdisjoint(added["resume_agent"])


def test_changing_a_shared_rule_rescores_every_agent(steps):
    *_, taken = steps
    before, after = (scored_at_by_agent(taken["agent_rule"]),
                     scored_at_by_agent(taken["shared_rule"]))
    for agent in (*OTHERS, AGENT):
        assert after[agent].isdisjoint(before[agent]), agent


def test_in_the_copy_the_registry_the_cli_and_the_agents_unit_test_know_the_toy_agent(steps):
    project, work, db, _ = steps
    registry = yaml.safe_load((project / "dbt_project.yml").read_text(encoding="utf-8"))
    agents = sorted(registry["vars"]["agents"])
    assert agents == sorted([*AGENTS_BEFORE, AGENT])
    result = CliRunner().invoke(main, ["--db", str(db), "--agent", "nope"])
    assert result.exit_code == 2
    assert AGENT in result.output.split("known: ", 1)[1]
    # the scaffold's unit test runs with the command the docs give (on the built warehouse:
    # dbt takes a unit test's column types from the relations)
    # (this warehouse was built without the RAG models, so only the agent's unit tests)
    proc = run_dbt(["test", "--select", f"test_type:unit,int_{AGENT}__item_scores"],
                   dbt_env(work / "input", db, work), cwd=project)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert f"PASS int_{AGENT}__item_scores::test_{AGENT}_rule_scores" in proc.stdout
