"""One warehouse for the end-to-end tests: the bundled samples (agents and RAG), the resume
fixture and, when ../shared is present, the team's real plan export — built once per session."""

from __future__ import annotations

import os

import pytest
import support.warehouse
from support.chat_server import script, server  # noqa: F401 - the judge's fixtures
from support.warehouse import FIXTURES, REAL_DATA, SAMPLES, Warehouse, build, copy_inputs

REAL_PLAN = REAL_DATA / "plan_agent_260224.csv"


@pytest.fixture(scope="session", autouse=True)
def shared_by_test_builds(tmp_path_factory) -> None:
    """One dbt parse and one clean build per inputs for the whole run
    (support.warehouse.dbt_invocation, support.rebuild.fresh_build); the xdist workers
    share them."""
    base = tmp_path_factory.getbasetemp()
    support.warehouse.SHARED = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
                                ) / "shared"


@pytest.fixture(scope="session")
def agent_warehouse(tmp_path_factory) -> Warehouse:
    work = tmp_path_factory.mktemp("agents")
    files = [
        SAMPLES / "plan_agent_sample.csv",
        SAMPLES / "resume_agent_sample.csv",
        SAMPLES / "url_agent_sample.csv",
        *sorted(SAMPLES.glob("router_eval_result_*.xlsx")),
        FIXTURES / "resume_agent_published.csv",
        SAMPLES / "qa_dataset_sample.json",
        *sorted(SAMPLES.glob("evaluation_report_sample_*.json")),
    ]
    if REAL_PLAN.exists():
        files.append(REAL_PLAN)
    # The resume sample shares its Query IDs (F-01 …) with the published-report fixture, a
    # different test set of the team's: tell the warehouse, as a user would (vars.run_pairs).
    unpaired = "{run_pairs: [{agent: resume_agent, head: resume_agent_sample.csv, base: null}]}"
    # artifacts: test_readme reads its manifest
    return build(copy_inputs(files, work / "input"), work, extra=["--vars", unpaired],
                 artifacts=True)


@pytest.fixture()
def con(agent_warehouse):
    with agent_warehouse.connect() as connection:
        yield connection
