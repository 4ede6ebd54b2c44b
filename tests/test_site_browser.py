"""The run browser in a real browser: headless Chromium (Debian's `chromium`, driven by
Playwright, never Playwright's own download) opens each page kind from file:// and from
`score-report site --serve`'s server. No console error, no request outside the site, the
run page's figures are the markdown report's, filters change the rows and live in the URL,
an item's permalink shows its raw reply with Korean as characters; a planted `<img onerror>`
in a query and `<script>` in a raw reply run nothing; axe-core (npm) finds no serious or
critical violation. A screenshot of each page kind goes to test-artifacts/site/.

`.ci/run` installs chromium and axe-core (into .ci/node_modules); without them the tests
are skipped and say what is missing."""

from __future__ import annotations

import csv
import json
import os
import re
import threading
from pathlib import Path

import pytest
from agent_scoring.reports import render_report
from agent_scoring.site.build import build as build_site
from agent_scoring.site.html import slug
from agent_scoring.site.serve import server
from support.site import CHROMIUM, chromium
from support.warehouse import REPO, SAMPLES, WITHOUT_DATA_TESTS, build, copy_inputs

AXE = Path(os.environ.get("AXE_JS") or REPO / ".ci" / "node_modules" / "axe-core" / "axe.min.js")
ARTIFACTS = REPO / "test-artifacts" / "site"
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or sync_playwright is None,
    reason="needs Debian's chromium (apt-get install chromium) and playwright (pip)")

HOSTILE_QUERY = '<img src=x onerror="window.__pwned=1">악성 질의'
HOSTILE_REPLY = '</script><script>window.__pwned=1</script>답변'
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def report_numbers(markdown: str) -> list[str]:
    """The numbers a reader sees in a markdown report: not its charts' source (the page
    draws them), nor an ordered list's markers (HTML numbers them itself)."""
    text = re.sub(r"```mermaid.*?```", "", markdown, flags=re.S)
    return NUMBER.findall(re.sub(r"(?m)^\s*\d+[.)] ", "", text))


def hostile_export(target: Path) -> Path:
    """The plan sample with a planted image in its first query and a script in its first
    reply (both rounds), as an export from a hostile or careless source would carry."""
    with (SAMPLES / "plan_agent_sample.csv").open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    query, raw = header.index("질의"), header.index("Raw JSON")
    first = rows[1][header.index("Query ID")]
    for row in rows[1:]:
        if row[header.index("Query ID")] == first:
            row[query] = HOSTILE_QUERY
            reply = json.loads(row[raw])
            reply["assistantMessage"] = HOSTILE_REPLY + " " + reply.get("assistantMessage", "")
            row[raw] = json.dumps(reply, ensure_ascii=False)
    with target.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return target


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    work = tmp_path_factory.mktemp("site-browser")
    inputs = work / "input"
    inputs.mkdir()
    hostile_export(inputs / "plan_agent_hostile.csv")
    copy_inputs([*sorted(SAMPLES.glob("router_eval_result_*.xlsx")),
                 SAMPLES / "qa_dataset_sample.json",
                 *sorted(SAMPLES.glob("evaluation_report_sample_*.json"))], inputs)
    return build(inputs, work, extra=list(WITHOUT_DATA_TESTS))


@pytest.fixture(scope="module")
def site(warehouse):
    with warehouse.connect() as con:
        written = build_site(con, warehouse.work / "site", (), echo=lambda _: None)
    assert not written.failed
    return written.root


@pytest.fixture(scope="module")
def browser():
    with chromium() as opened:
        yield opened


@pytest.fixture(scope="module")
def served(site):
    httpd = server(site, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def pages(site: Path) -> dict[str, str]:
    """One page of each kind, relative to the site's root (with its URL fragment)."""
    plan = f"runs/plan_agent/{slug('plan_agent_hostile.csv')}/"
    compare = next(site.glob("compare/router_agent/*.html")).relative_to(site).as_posix()
    rag = next(site.glob("runs/rag/*/index.html")).relative_to(site).as_posix()
    return {"index": "index.html", "run": plan + "index.html", "item": plan + "item.html#r=1",
            "compare": compare, "routing": "routing.html", "rag": rag}


class Visit:
    """A page opened in a fresh context, with every console error and request it made."""

    def __init__(self, browser, url: str, inside: str, bypass_csp: bool = False):
        self.context = browser.new_context(bypass_csp=bypass_csp,
                                           viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: r.url.startswith(inside) or self.outside.append(r.url))
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        if "item-status" in self.page.content():
            self.page.wait_for_function(
                "() => !document.getElementById('item-status').textContent.includes('불러오는 중')")

    def close(self) -> None:
        self.context.close()


def open_page(browser, base: str, relative: str, **kwargs) -> Visit:
    return Visit(browser, base + relative, base, **kwargs)


@pytest.mark.parametrize("served_from", ["file", "serve"])
def test_each_page_kind_loads_clean(browser, site, served, served_from):
    base = site.as_uri() + "/" if served_from == "file" else served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for kind, relative in pages(site).items():
        visit = open_page(browser, base, relative)
        try:
            assert visit.errors == [], (kind, visit.errors)
            assert visit.outside == [], (kind, visit.outside)
            assert visit.page.evaluate("window.__pwned") is None, kind
            assert visit.page.locator("main").count() == 1
            if served_from == "file":
                visit.page.screenshot(path=str(ARTIFACTS / f"{kind}.png"), full_page=True)
        finally:
            visit.close()


def test_the_run_page_shows_the_reports_figures_and_filters_by_url(browser, site, warehouse):
    base = site.as_uri() + "/"
    run = pages(site)["run"]
    with warehouse.connect() as con:
        markdown = render_report(con, "plan_agent", "plan_agent_hostile.csv")
    visit = open_page(browser, base, run)
    try:
        shown = iter(NUMBER.findall(visit.page.inner_text("article.report")))
        wanted = report_numbers(markdown)
        assert [n for n in wanted if not any(n == s for s in shown)] == []
        rows = visit.page.locator("#item-table tbody tr")
        everything = rows.count()
        assert everything == 40
        visit.page.select_option("select[name=status]", "error")
        assert "status=error" in visit.page.url
        errors = rows.count()
        assert 0 < errors < everything
        statuses = visit.page.locator("#item-table tbody tr td:nth-child(5)").all_inner_texts()
        assert set(statuses) == {"error"}
        visit.page.fill("input[name=q]", "악성")
        assert rows.count() < everything
        link = visit.page.url
    finally:
        visit.close()
    again = Visit(browser, link, base)  # a filtered view is a link someone can send
    try:
        assert again.page.input_value("input[name=q]") == "악성"
        assert again.page.locator("#item-table tbody tr").count() == 2 or \
            again.page.locator("#item-table tbody tr").count() < everything
    finally:
        again.close()


def test_the_item_permalink_shows_its_raw_reply_as_text(browser, site):
    visit = open_page(browser, site.as_uri() + "/", pages(site)["item"])
    try:
        raw = visit.page.inner_text("#raw")
        assert "assistantMessage" in raw and "<script>window.__pwned=1</script>" in raw
        assert "답변" in raw and "\\u" not in raw  # Korean as characters
        assert visit.page.locator("#raw mark").count() > 0  # the fields the checks read
        assert HOSTILE_QUERY in visit.page.inner_text("#item-fields")
        assert visit.page.locator("#item-fields img").count() == 0
        assert visit.page.evaluate("window.__pwned") is None
        assert visit.page.locator("#checks tbody tr").count() > 0
        # each round of the query: this one, and a link to the other
        # a function, not an expression: Playwright evals an expression in the page, which
        # the page's policy refuses
        visit.page.wait_for_function("() => document.querySelectorAll('#rounds li').length === 2")
        other = visit.page.locator("#rounds a")
        assert other.count() == 1
        other.click()
        visit.page.wait_for_function("() => document.getElementById('item-title').textContent"
                                     ".includes('2/1')")
        assert HOSTILE_REPLY in visit.page.inner_text("#raw")
    finally:
        visit.close()


@pytest.mark.skipif(not AXE.exists(), reason=f"needs axe-core: npm install --prefix .ci "
                    f"axe-core (or AXE_JS=path/to/axe.min.js); {AXE} is not there")
def test_axe_finds_no_serious_violation(browser, site):
    base = site.as_uri() + "/"
    found = {}
    for kind, relative in pages(site).items():
        # axe is injected from outside the site: the page's own policy would refuse it
        visit = open_page(browser, base, relative, bypass_csp=True)
        try:
            visit.page.add_script_tag(path=str(AXE))
            found[kind] = visit.page.evaluate(
                "axe.run(document).then(r => r.violations"
                ".filter(v => ['serious', 'critical'].includes(v.impact))"
                ".map(v => v.id + ': ' + v.help + ' (' + v.nodes.length + ')'))")
        finally:
            visit.close()
    assert found == {kind: [] for kind in found}
