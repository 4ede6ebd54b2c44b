"""Read rendered reports the way GitHub does: as markdown tables, not as strings."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

_PARSER = MarkdownIt("commonmark").enable("table")


def parse(text: str) -> list[Token]:
    return _PARSER.parse(text)


def cell_text(inline: Token) -> str:
    """What a reader sees in a cell: escapes and entities resolved."""
    return "".join(child.content for child in inline.children or [])


def tables(text: str) -> list[list[list[str]]]:
    """Every table in the document as rows of cell texts (header row first)."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] | None = None
    row: list[str] | None = None
    for token in _PARSER.parse(text):
        if token.type == "table_open":
            rows = []
        elif token.type == "table_close":
            found.append(rows or [])
            rows = None
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and rows is not None and row is not None:
            rows.append(row)
        elif token.type == "inline" and row is not None and rows is not None:
            row.append(cell_text(token))
    return found


def table_with_header(text: str, first_cell: str, contains: str | None = None) -> list[list[str]]:
    """The first table whose header starts with `first_cell` (and has a cell `contains`)."""
    for table in tables(text):
        header = table[0]
        if header[0] == first_cell and (contains is None or contains in header):
            return table
    raise AssertionError(f"no table starting with {first_cell!r} ({contains!r})")


def tables_by_heading(text: str) -> dict[str, list[list[str]]]:
    """The first table after each heading, as rows of cell texts (header row first)."""
    tokens = parse(text)
    tables: dict[str, list[list[str]]] = {}
    heading = None
    rows: list[list[str]] | None = None
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            heading = tokens[i + 1].content
        elif tok.type == "table_open":
            rows = []
        elif tok.type == "tr_open" and rows is not None:
            rows.append([])
        elif (
            tok.type == "inline"
            and rows is not None
            and tokens[i - 1].type in ("th_open", "td_open")
        ):
            rows[-1].append(cell_text(tok))
        elif tok.type == "table_close" and rows is not None:
            if heading is not None and heading not in tables:
                tables[heading] = rows
            rows = None
    return tables


def html_tokens(text: str) -> list[Token]:
    """Raw HTML that markdown would pass through to a browser."""
    found = []
    for tok in parse(text):
        if tok.type == "html_block":
            found.append(tok)
        for child in tok.children or []:
            if child.type == "html_inline":
                found.append(child)
    return found


def without_sections(text: str, titles: tuple[str, ...]) -> str:
    """The report with each section titled one of `titles` left out (its heading line up to
    the next heading): what it was before those sections were added."""
    kept: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if line.startswith("#"):
            skipping = line.lstrip("#").strip() in titles
        if not skipping:
            kept.append(line)
    return "".join(kept)


_INTERVAL = re.compile(r" \(95% CI [^()]*\)")
_MERMAID = re.compile(r"```mermaid\n.*?\n```\n\n?", re.S)


def without_intervals(text: str) -> str:
    """The report with every inline " (95% CI low–high)" left out."""
    return _INTERVAL.sub("", text)


def without_charts(text: str) -> str:
    """The report with every mermaid block (and the blank line after it) left out."""
    return _MERMAID.sub("", text)


def mermaid_blocks(text: str) -> list[str]:
    """The source of every mermaid block, as a renderer receives it."""
    return [tok.content for tok in parse(text) if tok.type == "fence" and tok.info == "mermaid"]
