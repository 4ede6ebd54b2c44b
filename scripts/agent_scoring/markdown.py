"""Jinja2 environment and the filters that keep generated markdown valid."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined

_NEWLINES = re.compile(r"\r\n|\r|\n")
# Characters that start inline markup (emphasis, links, code, strikethrough, GitHub math) or
# end a table cell. CommonMark lets a backslash escape any ASCII punctuation, so escaping
# them shows them literally and never changes a table's shape.
_INLINE_MARKUP = re.compile(r"([\\`*_\[\]|~$])")


def cell(value: object) -> str:
    """Text shown literally inside a GFM table cell, whatever it contains: one line, HTML
    as text (&, <, > as entities), markdown punctuation and pipes backslash-escaped."""
    if value is None:
        return ""
    text = _NEWLINES.sub(" ", str(value)).strip()
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _INLINE_MARKUP.sub(r"\\\1", text)


def inline(value: object) -> str:
    """Text safe in a bullet, a paragraph or a code span: one line, HTML neutralised, pipes
    and backticks escaped (markdown punctuation is left alone: inside `…` it would show)."""
    if value is None:
        return ""
    text = str(value)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")
    return _NEWLINES.sub(" ", text).strip()


def num(value: object, digits: int = 2) -> str:
    """A number with fixed decimals, half up as people round (14.2575 → 14.258), or '-'.

    Means of floats carry binary noise (14.2575 may be 14.257499999999999 or …0001
    depending on summation order); rounding to 9 places first makes the display stable.
    """
    if value is None:
        return "-"
    exact = Decimal(repr(round(float(value), 9)))
    return str(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def pct(value: object, digits: int = 1) -> str:
    """A ratio as a percentage, or '-' when missing."""
    if value is None:
        return "-"
    return f"{float(value) * 100:.{digits}f}%"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("agent_scoring", "templates"),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["cell"] = cell
    env.filters["inline"] = inline
    env.filters["num"] = num
    env.filters["pct"] = pct
    return env


def render(template: str, context: dict) -> str:
    return environment().get_template(template).render(**context)
