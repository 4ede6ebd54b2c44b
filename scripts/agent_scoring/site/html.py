"""The run browser's HTML: a jinja2 environment with autoescape on, and the markdown reports
turned into HTML by markdown-it with raw HTML off, so every string from an export is text.
The reports' mermaid charts become inline SVG (charts.py)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup

from agent_scoring.markdown import fixed, num, pct, signed
from agent_scoring.site import charts

# No request leaves the site: scripts, styles and images from its own files only, no inline
# script, style attribute or event handler, no form posting anywhere. The server adds
# frame-ancestors, which a <meta> policy cannot carry.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'")
# A report of a 100k-item run lists every inconsistent query (one table row each) and every
# Query ID of a failure pattern (one cell): the page shows the first rows and characters
# and says how many more the markdown report holds, so no page passes ~1 MB. They are cut
# in the markdown, before parsing: markdown-it took seconds over the whole of them.
SHOWN_ROWS = 200
SHOWN_CELL_CHARS = 1000
CUT_NOTE = ("(표의 행 {hidden:,}개 더: 전체는 score-report가 쓴 markdown 리포트에, 항목은 "
            "아래 항목 표에 있다.)")
ALIGN = {"text-align:right": "num", "text-align:center": "center", "text-align:left": ""}


def slug(name: str) -> str:
    """A file or folder name for a run: its name's safe characters, and a short hash when
    anything else was in it (Korean, spaces) so that two names never share a slug."""
    text = unicodedata.normalize("NFC", name)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "run"
    if safe != text:
        safe += "-" + hashlib.sha1(text.encode()).hexdigest()[:8]
    return safe


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("agent_scoring.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(num=num, pct=pct, fixed=fixed, signed=signed, slug=slug)
    env.globals["csp"] = CSP
    env.globals["layout"] = charts.layout
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


def chart_svg(chart: charts.Chart) -> Markup:
    return Markup(render("_chart.svg.j2", c=charts.layout(chart)))


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    fence = md.renderer.rules["fence"]

    def mermaid_as_svg(self, tokens, idx, options, env):
        token = tokens[idx]
        if token.info.strip() == "mermaid":
            try:
                return str(chart_svg(charts.parse_xychart(token.content)))
            except (charts.NotAChart, ValueError):
                pass
        return fence(tokens, idx, options, env)

    def table_open(self, tokens, idx, options, env):
        # wide tables scroll inside their own box, not the page
        return '<div class="table-wrap" tabindex="0">' + md.renderer.renderToken(
            tokens, idx, options, env)

    def table_close(self, tokens, idx, options, env):
        return md.renderer.renderToken(tokens, idx, options, env) + "</div>"

    def aligned_cell(self, tokens, idx, options, env):
        # a column's alignment as a class: the policy forbids style attributes
        token = tokens[idx]
        align = ALIGN.get(str(token.attrs.pop("style", "")), "")
        if align:
            token.attrSet("class", align)
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("fence", mermaid_as_svg)
    md.add_render_rule("th_open", aligned_cell)
    md.add_render_rule("td_open", aligned_cell)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return md


TABLE_SEPARATOR = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+\s*$")


def cut_tables(text: str) -> str:
    """The markdown with each table cut after SHOWN_ROWS body rows and a note saying how
    many more the report holds: cut before parsing, as parsing 14,000 rows took seconds."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        starts = lines[i].startswith("|") and i + 1 < len(lines)
        if starts and TABLE_SEPARATOR.match(lines[i + 1]):
            out.append(lines[i + 1])
            i += 2
            body = i
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            out.extend(cut_cells(line) for line in lines[body:min(i, body + SHOWN_ROWS)])
            if i - body > SHOWN_ROWS:
                out.extend(["", CUT_NOTE.format(hidden=i - body - SHOWN_ROWS), ""])
            continue
        i += 1
    return "\n".join(out)


CELL_BORDER = re.compile(r"(?<!\\)\|")


def cut_cells(line: str) -> str:
    """A table row with each cell's text cut after SHOWN_CELL_CHARS characters (never inside
    a backslash escape), and a note of how many more there were."""
    if len(line) <= SHOWN_CELL_CHARS:
        return line
    cells = CELL_BORDER.split(line)
    for n, cell in enumerate(cells):
        if len(cell) > SHOWN_CELL_CHARS:
            kept = cell[:SHOWN_CELL_CHARS]
            escapes = len(kept) - len(kept.rstrip("\\"))
            kept = kept[:len(kept) - escapes % 2]
            cells[n] = f"{kept} … (글자 {len(cell) - len(kept):,}개 더) "
    return "|".join(cells)


def report_html(text: str) -> Markup:
    """A markdown report as HTML. markdown-it renders with raw HTML disabled and escapes
    every character of text, so the result is safe to place in a page as it is."""
    md = markdown()
    env: dict = {}
    tokens = md.parse(cut_tables(text), env)
    return Markup(md.renderer.render(tokens, md.options, env))
