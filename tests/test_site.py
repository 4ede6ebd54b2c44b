"""The run browser's pages without a browser (`score-report site` on the session's warehouse):
every page keeps its security policy and carries no inline script, style or handler; the run
page shows the figures of the markdown report to the digit; the charts are the reports' own;
the CLI's exit codes are `score-report`'s."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from agent_scoring.cli import main
from agent_scoring.reports import render_report
from agent_scoring.site import charts
from agent_scoring.site.html import CSP, report_html, slug
from click.testing import CliRunner
from support.markdown import mermaid_blocks
from support.site import parsed
from support.warehouse import REPO

GOLDEN = REPO / "tests" / "golden"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def report_numbers(markdown: str) -> list[str]:
    """The numbers a reader sees in a markdown report: not its charts' source (the page
    draws them), nor an ordered list's markers (HTML numbers them itself)."""
    text = re.sub(r"```mermaid.*?```", "", markdown, flags=re.S)
    return NUMBER.findall(re.sub(r"(?m)^\s*\d+[.)] ", "", text))


@pytest.fixture(scope="module")
def site(agent_warehouse, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    result = CliRunner().invoke(main, ["site", "--out", str(out), "--db",
                                       str(agent_warehouse.db)])
    assert result.exit_code == 0, result.output
    return out


def test_every_page_keeps_the_policy_and_has_no_inline_code(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    for path in pages:
        page = parsed(path)
        assert page.csp == CSP, path
        assert page.inline_scripts == 0 and not page.handlers and not page.styles, path


def test_the_run_page_shows_every_figure_of_its_markdown_report(site, con):
    for agent, source_file in con.execute(
            "select agent, source_file from runs order by 1, 2").fetchall():
        markdown = render_report(con, agent, source_file)
        page = site / "runs" / slug(agent) / slug(source_file) / "index.html"
        shown = NUMBER.findall(" ".join(parsed(page).text))
        wanted = report_numbers(markdown)
        # every number of the report, in its order (the page adds its own around it)
        found = iter(shown)
        missing = [n for n in wanted if not any(n == s for s in found)]
        assert not missing, f"{source_file}: {missing[:5]}"


def test_the_rag_page_gives_each_questions_verdict(site, con):
    passed, failed = con.execute(
        "select count(*) filter (where passed), count(*) filter (where not passed) "
        "from rag_judgements where report_file = 'evaluation_report_sample_20251211_100000.json'"
    ).fetchone()
    page = (site / "runs" / "rag" / slug("evaluation_report_sample_20251211_100000.json")
            / "index.html").read_text(encoding="utf-8")
    assert page.count('<span class="badge pass">통과</span>') == passed > 0
    assert page.count('<span class="badge fail">실패</span>') == failed > 0


def test_every_golden_chart_is_drawn_as_svg():
    blocks = [block for path in sorted(GOLDEN.glob("*.md"))
              for block in mermaid_blocks(path.read_text(encoding="utf-8"))]
    assert blocks
    for block in blocks:
        chart = charts.parse_xychart(block)
        assert chart.series and all(len(s.values) == len(chart.x) for s in chart.series)
        svg = str(report_html(f"```mermaid\n{block}\n```\n"))
        assert svg.startswith('<figure class="chart">') and "<svg" in svg


def test_report_text_is_never_markup():
    hostile = ('# t\n\n| a | b |\n| --- | ---: |\n| <img src=x onerror=alert(1)> | '
               '<script>alert(1)</script> |\n\n[x](javascript:alert(1)) <b onclick="x">')
    out = str(report_html(hostile))
    assert "<img" not in out and "<script" not in out and "<b " not in out
    assert 'href="javascript' not in out and "style=" not in out
    assert '<td class="num">' in out


def test_slugs_of_different_names_differ():
    names = ["a b.csv", "a_b.csv", "실행 결과.csv", "실행_결과.csv", "../x.csv", "x.csv"]
    slugs = [slug(n) for n in names]
    assert len(set(slugs)) == len(slugs)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", s) and not s.startswith(".") for s in slugs)


def test_exit_codes_are_score_reports(agent_warehouse, tmp_path):
    runner = CliRunner()
    db = str(agent_warehouse.db)
    unknown = runner.invoke(main, ["site", "--out", str(tmp_path / "a"), "--db", db,
                                   "--agent", "nobody"])
    assert unknown.exit_code == 2 and "unknown agent" in unknown.output
    missing = runner.invoke(main, ["site", "--out", str(tmp_path / "b"), "--db",
                                   str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 1 and "run `dbt build` first" in missing.output
    no_run = runner.invoke(main, ["site", "--out", str(tmp_path / "d"), "--db", db,
                                  "--compare", "nope.csv", "plan_agent_sample.csv"])
    assert no_run.exit_code == 1 and "no run 'nope.csv'" in no_run.output
    assert not (tmp_path / "d").exists()
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine")
    refused = runner.invoke(main, ["site", "--out", str(theirs), "--db", db])
    assert refused.exit_code == 1 and "did not write" in refused.output
    assert (theirs / "notes.txt").read_text() == "mine"
    one = runner.invoke(main, ["site", "--out", str(tmp_path / "c"), "--db", db,
                               "--agent", "plan_agent"])
    assert one.exit_code == 0, one.output
    again = runner.invoke(main, ["site", "--out", str(tmp_path / "c"), "--db", db,
                                 "--agent", "plan_agent"])
    assert again.exit_code == 0, again.output
    assert sorted(p.name for p in (tmp_path / "c" / "runs").iterdir()) == ["plan_agent"]


def test_any_two_runs_get_a_compare_page_on_request(agent_warehouse, tmp_path):
    older, newer = "router_eval_result_261118_1520.xlsx", "router_eval_result_261125_1040.xlsx"
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path / "s"), "--db",
                                       str(agent_warehouse.db), "--agent", "router_agent",
                                       "--compare", older, newer])
    assert result.exit_code == 0, result.output
    pages = sorted(p.name for p in (tmp_path / "s" / "compare" / "router_agent").iterdir())
    assert pages == [f"{slug(older)}--{slug(newer)}.html", f"{slug(newer)}--{slug(older)}.html"]


def test_a_huge_report_table_is_cut_with_a_note(monkeypatch):
    from agent_scoring.site import html

    monkeypatch.setattr(html, "SHOWN_ROWS", 3)
    monkeypatch.setattr(html, "SHOWN_CELL_CHARS", 10)
    rows = "".join(f"| r{i} | {'가' * 30 if i == 1 else i} |\n" for i in range(8))
    second = "".join(f"| s{i} | {i} |\n" for i in range(2))
    out = str(report_html(f"| a | b |\n| - | -: |\n{rows}\n| c | d |\n| - | - |\n{second}"))
    assert out.count("<tr>") == 1 + 3 + 1 + 2  # each header, 3 rows, then all of the second
    assert "<p>(표의 행 5개 더: 전체는" in out  # the note itself is never cut
    assert "표의 행 5개 더" in out and "<th>c</th>" in out
    assert re.search(r"<td class=\"num\">가+ … \(글자 2\d개 더\)</td>", out)


def test_every_run_gets_all_its_rows_however_the_items_stream_in(agent_warehouse, con,
                                                                 tmp_path, monkeypatch):
    """The items are one pass over every run, fetched a few rows at a time, while each run's
    checks are read: every run still gets every row, in data files of ROW_CHUNK items."""
    import json

    from agent_scoring.site import build as site_build

    monkeypatch.setattr(site_build, "FETCH_ROWS", 7)
    monkeypatch.setattr(site_build, "ROW_CHUNK", 5)
    site = site_build.build(con, tmp_path / "s", (), echo=lambda _: None).root
    counts = con.execute("select agent, source_file, count(*) from item_scores "
                         "group by all").fetchall()
    for agent, source_file, count in counts:
        folder = site / "runs" / slug(agent) / slug(source_file)
        found = []
        for data in sorted(folder.glob("rows-*.js")):
            text = data.read_text(encoding="utf-8")
            found += json.loads(text[text.index(", [") + 2:text.rindex(");")])
        assert len(found) == count, source_file
        assert max(len(list(folder.glob("rows-*.js"))), 1) >= count // 5
