"""The orchestrator's routing test as the fourth agent (issue 39): router_agent is a registry
entry that declares its export's shape (xlsx sheet, its own headers, one round per file,
latency from a column) plus its rule. The bundled two runs' figures are checked against
values counted by hand from tools/router_sample_cases.csv.

Also: another agent declared in a copy of the project maps the same header (`응답값`)
differently, reads its rows from a non-first sheet and its latency in ms, and a declaration
that cannot work stops the build in one line naming the key.
"""

from __future__ import annotations

import re
import shutil

import pytest
import yaml
from agent_scoring.cli import main
from click.testing import CliRunner
from support.warehouse import REPO, SAMPLES, all_rows, build, copy_inputs, dbt_env, run_dbt
from support.xlsx import write_xlsx
from test_adding_an_agent import project_copy

RUN1 = "router_eval_result_261118_1520.xlsx"
RUN2 = "router_eval_result_261125_1040.xlsx"
URL, PLAN = "URL_WORKER_V3", "RECRUIT_PLAN_CREATE_WORKER_V3"
RESUME, WIKI = "RESUME_WORKER_V3", "RECRUIT_WIKI_WORKER_V3"


@pytest.fixture(scope="module")
def router(tmp_path_factory):
    work = tmp_path_factory.mktemp("router")
    return build(copy_inputs([SAMPLES / RUN1, SAMPLES / RUN2], work / "input"), work)


def accuracy(router) -> dict[tuple, dict]:
    with router.connect() as con:
        found = all_rows(con, "select * from router_agent__accuracy")
    return {(r["source_file"], r["expected_agent"]): r for r in found}


def test_accuracy_per_run_and_per_expected_agent(router):
    found = accuracy(router)
    counted = {  # (queries, routed right, export verdicts that disagree, errors), by hand
        (RUN1, "(all)"): (24, 19, 0, 0), (RUN1, URL): (8, 6, 0, 0), (RUN1, PLAN): (6, 4, 0, 0),
        (RUN1, RESUME): (6, 5, 0, 0), (RUN1, WIKI): (4, 4, 0, 0),
        (RUN2, "(all)"): (24, 22, 2, 1), (RUN2, URL): (8, 8, 0, 0), (RUN2, PLAN): (6, 5, 0, 1),
        (RUN2, RESUME): (6, 6, 1, 0), (RUN2, WIKI): (4, 3, 1, 0),
    }
    assert {key: (r["query_count"], r["routed_right_count"], r["verdict_disagreements"],
                  r["error_count"]) for key, r in found.items()} == counted
    assert found[(RUN1, "(all)")]["accuracy"] == pytest.approx(19 / 24)
    assert found[(RUN2, WIKI)]["accuracy"] == pytest.approx(0.75)


def test_latency_mean_p50_p90_and_tokens(router):
    found = accuracy(router)
    run1, run2 = found[(RUN1, "(all)")], found[(RUN2, "(all)")]
    # run 1 sorted: … 12th 0.95 … 22nd 1.29; run 2: 12th 1.31, 22nd 1.73 (the 503 took 6.84 s)
    assert (run1["latency_p50_sec"], run1["latency_p90_sec"]) == (0.95, 1.29)
    assert (run2["latency_p50_sec"], run2["latency_p90_sec"]) == (1.31, 1.73)
    assert run1["latency_mean_sec"] == pytest.approx(24.46 / 24)
    assert run2["latency_mean_sec"] == pytest.approx(37.84 / 24)
    # the failed call has no tokens: means over the 23 that answered
    assert (run1["input_tokens_mean"], run1["total_tokens_mean"]) == (612, 623)
    assert (run2["input_tokens_mean"], run2["total_tokens_mean"]) == (641, 690)


def test_the_confusion_matrix(router):
    with router.connect() as con:
        cells = all_rows(con, "select source_file, expected_agent, returned_agent, query_count "
                              "from router_agent__confusion where expected_agent <> returned_agent "
                              "order by all")
    assert [tuple(c.values()) for c in cells] == sorted([
        (RUN1, PLAN, URL, 1), (RUN1, PLAN, WIKI, 1), (RUN1, RESUME, URL, 1),
        (RUN1, URL, PLAN, 1), (RUN1, URL, WIKI, 1),
        (RUN2, PLAN, "(none)", 1), (RUN2, WIKI, URL, 1),
    ])


def test_the_run_settings_and_what_changed_since_the_previous_run(router):
    with router.connect() as con:
        changed = all_rows(con, "select setting, previous_value, setting_value "
                                "from router_agent__run_settings where changed order by 1")
        first = all_rows(con, "select count(*) as n, count(previous_source_file) as with_previous"
                              " from router_agent__run_settings where source_file = ?", [RUN1])
        model = all_rows(con, "select setting_value from router_agent__run_settings "
                              "where source_file = ? and setting = 'model'", [RUN2])
    assert [c["setting"] for c in changed] == ["system_prompt", "thinking_budget"]
    assert (changed[1]["previous_value"], changed[1]["setting_value"]) == ("0", "-1")
    assert first == [{"n": 11, "with_previous": 0}]
    assert model == [{"setting_value": "gemini-2.5-flash"}]


def test_item_scores_hold_one_round_per_file_and_the_routing_score(router):
    with router.connect() as con:
        items = all_rows(con, "select source_file, query_id, item_id, round_label, status, "
                              "intent_score, accuracy_score, response_time_sec from item_scores "
                              "where agent = 'router_agent' order by source_file, record_no")
    assert len(items) == 48 and {i["round_label"] for i in items} == {"1/1"}
    assert all(i["query_id"] == i["item_id"] for i in items)
    r13 = next(i for i in items if i["source_file"] == RUN2 and i["item_id"] == "R-13")
    assert (r13["status"], r13["intent_score"], r13["response_time_sec"]) == ("error", 0, 6.84)
    r05 = next(i for i in items if i["source_file"] == RUN1 and i["item_id"] == "R-05")
    assert (r05["status"], r05["accuracy_score"]) == ("ok", 0)


def test_the_report_section_in_the_team_style(router, tmp_path):
    result = CliRunner().invoke(main, ["--db", str(router.db), "--out", str(tmp_path),
                                       "--agent", "router_agent"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "router_eval_result_261125_1040_score_summary.md").read_text(
        encoding="utf-8")
    def md(value: str) -> str:  # as the report's table cells write it
        return value.replace("_", "\\_")

    assert text.startswith(f"# 라우터 에이전트 라우팅 평가 리포트 ({md(RUN2[:-5])})")
    assert ("| 전체 | 24 | 22 | 91.7% | 2 | 1 | 1.577 | 1.310 | 1.730 | 641.0 | 11.0 | 690.0 |"
            in text)
    assert f"| {md(WIKI)} | {md(URL)} ⚠ | 1 |" in text
    assert f"| {md('thinking_budget')} | -1 | 0 | 변경 |" in text
    assert "| R-24 |" in text and "성공 여부가 라우팅 결과와 다름" in text


@pytest.fixture(scope="module")
def declared(tmp_path_factory):
    """A copy of the project with a second declared agent, ticket_agent: rows on a
    non-first sheet, `번호` as both item and query, its latency in ms, and `응답값` (which the
    router reads as the returned agent) as its expected result."""
    work = tmp_path_factory.mktemp("declared")
    project = project_copy(work / "project")
    added = CliRunner().invoke(main, ["new-agent", "ticket_agent", "--project", str(project)])
    assert added.exit_code == 0, added.output
    config = project / "dbt_project.yml"
    text = config.read_text(encoding="utf-8")
    entry = re.search(r"\n    ticket_agent:\n(?:      .*\n)+", text).group()
    declaration = (
        "\n    ticket_agent:\n"
        "      display_name: 티켓 에이전트\n"
        "      files: [ticket_eval_*.xlsx]\n"
        "      sheet: data\n"
        "      headers: {번호: [item_id, query_id], 응답값: expected_result, 소요(ms): took_ms}\n"
        "      required_columns: [번호, 질의, 응답값, 소요(ms), Raw JSON]\n"
        "      rounds: per_file\n"
        "      response_time: {column: took_ms, unit: ms}\n"
    )
    config.write_text(text.replace(entry, declaration), encoding="utf-8")
    inputs = work / "input"
    copy_inputs([SAMPLES / RUN1], inputs)
    header = ["번호", "질의", "응답값", "소요(ms)", "Raw JSON"]
    rows = [["T-1", "환불 문의", "환불", 1500, '{"assistantMessage": "환불을 도와드릴게요"}'],
            ["T-2", "배송 문의", "배송", 2500, '{"assistantMessage": "주문 내역을 볼게요"}']]
    write_xlsx(inputs / "ticket_eval_1126.xlsx", header, rows, sheet="data", before=["cover"])
    db = work / "warehouse.duckdb"
    env = dbt_env(inputs, db, work)
    proc = run_dbt(["build", "--exclude", "tag:rag"], env, cwd=project)
    assert proc.returncode == 0, proc.stdout[-5000:]
    return project, env, db


def test_a_declared_agent_scores_from_a_non_first_sheet_with_its_own_id_and_latency(declared):
    import duckdb

    _, _, db = declared
    with duckdb.connect(str(db), read_only=True) as con:
        items = all_rows(con, "select item_id, query_id, round_label, response_time_sec, "
                              "intent_score from item_scores where agent = 'ticket_agent' "
                              "order by record_no")
        sheet = all_rows(con, "select sheet_name from input_files where agent = 'ticket_agent'")
    assert items == [
        {"item_id": "T-1", "query_id": "T-1", "round_label": "1/1", "response_time_sec": 1.5,
         "intent_score": 5},
        {"item_id": "T-2", "query_id": "T-2", "round_label": "1/1", "response_time_sec": 2.5,
         "intent_score": 0},
    ]
    assert sheet == [{"sheet_name": "data"}]


def test_two_agents_map_the_same_header_each_their_own_way(declared):
    import duckdb

    _, _, db = declared
    with duckdb.connect(str(db), read_only=True) as con:
        ticket = all_rows(con, "select expected_result, response_text from int_exports__results "
                               "where agent = 'ticket_agent' order by record_no")
        router_rows = all_rows(con, "select expected_result, response_text "
                                    "from int_exports__results where agent = 'router_agent' "
                                    "and item_id = 'R-05'")
    assert ticket == [{"expected_result": "환불", "response_text": None},
                      {"expected_result": "배송", "response_text": None}]
    assert router_rows == [{"expected_result": URL, "response_text": PLAN}]


@pytest.mark.parametrize(("key", "value", "message"), [
    ("rounds", "per_round", 'vars.agents.router_agent.rounds: "per_round"; use column'),
    ("response_time", "{column: latency_sec, unit: min}",
     'vars.agents.router_agent.response_time.unit: "min"; use s or ms'),
    ("sheets", "results", "vars.agents.router_agent.sheets: not a registry key"),
])
def test_a_declaration_that_cannot_work_is_one_line_naming_the_key(declared, key, value,
                                                                    message):
    project, env, _ = declared
    registry = yaml.safe_load((project / "dbt_project.yml").read_text(encoding="utf-8"))
    agents = registry["vars"]["agents"]
    agents["router_agent"][key] = yaml.safe_load(value)
    proc = run_dbt(["parse", "--vars", yaml.safe_dump({"agents": agents}, allow_unicode=True)],
                   env, cwd=project)
    assert proc.returncode != 0
    lines = [line for line in proc.stdout.splitlines() if message in line]
    assert lines, proc.stdout[-3000:]


def test_the_samples_generator_writes_what_is_bundled(tmp_path, monkeypatch):
    """The bundled xlsx hold what tools/router_sample_cases.csv says (sheets and cells)."""
    import importlib.util

    import openpyxl

    spec = importlib.util.spec_from_file_location(
        "make_router_samples", REPO / "tools" / "make_router_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "SAMPLES", tmp_path)
    module.main()
    for name in (RUN1, RUN2):
        made = openpyxl.load_workbook(tmp_path / name)
        bundled = openpyxl.load_workbook(SAMPLES / name)
        assert made.sheetnames == bundled.sheetnames == [
            "results", "summary", "confusion_matrix", "run_config"]
        for sheet in made.sheetnames:
            assert list(made[sheet].values) == list(bundled[sheet].values), (name, sheet)
    shutil.rmtree(tmp_path)
