"""Read rendered reports the way GitHub does: as markdown tables, not as strings."""

from __future__ import annotations

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark").enable("table")


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
            row.append(token.content)
    return found


def table_with_header(text: str, first_cell: str, contains: str | None = None) -> list[list[str]]:
    """The first table whose header starts with `first_cell` (and has a cell `contains`)."""
    for table in tables(text):
        header = table[0]
        if header[0] == first_cell and (contains is None or contains in header):
            return table
    raise AssertionError(f"no table starting with {first_cell!r} ({contains!r})")
