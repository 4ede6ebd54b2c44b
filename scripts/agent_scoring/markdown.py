"""Jinja2 environment and the filters that keep generated markdown valid.

Every value from the data goes through one of three filters, by where it lands:
`cell` (a GFM table cell), `text` (a bullet, paragraph or heading) or `code` (a whole code
span, backticks included). Each shows the value literally, on one line, without control
characters, whatever it contains.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from jinja2 import Environment, FileSystemBytecodeCache, PackageLoader, StrictUndefined

_NEWLINES = re.compile(r"\r\n|\r|\n")
# C0 and C1 control characters (tab, CR and LF are handled apart), DEL, and the Unicode
# line/paragraph separators some viewers break lines on; a lone surrogate cannot be encoded.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# Characters that start inline markup (emphasis, links, code, strikethrough, GitHub math) or
# end a table cell. CommonMark lets a backslash escape any ASCII punctuation, so escaping
# them shows them literally and never changes a table's shape.
_INLINE_MARKUP = re.compile(r"([\\`*_\[\]|~$])")
# In a heading, trailing `#`s would close it.
_TEXT_MARKUP = re.compile(r"([\\`*_\[\]|~$#])")
_BACKTICK_RUNS = re.compile(r"`+")
# Any character `cell` changes: a value without one (most are) is only stripped.
_CELL_SPECIALS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff&<>\\`*_\[\]|~$]")


def one_line(value: object) -> str:
    """The value as text on one line, with control characters removed."""
    return _CONTROLS.sub("", _NEWLINES.sub(" ", str(value))).strip()


def cell(value: object) -> str:
    """Text shown literally inside a GFM table cell, whatever it contains: one line, HTML
    as text (&, <, > as entities), markdown punctuation and pipes backslash-escaped."""
    if value is None:
        return ""
    text = str(value)
    if _CELL_SPECIALS.search(text) is None:
        return text.strip()
    text = one_line(text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _INLINE_MARKUP.sub(r"\\\1", text)


def text(value: object) -> str:
    """Text shown literally in a bullet, a paragraph or a heading."""
    if value is None:
        return ""
    escaped = one_line(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _TEXT_MARKUP.sub(r"\\\1", escaped)


def code(value: object, in_table: bool = False) -> str:
    """A whole code span showing the value literally: fenced by more backticks than any run
    inside it (no escape works inside a code span), padded when it starts or ends with a
    backtick. In a table cell a pipe still ends the cell, so it is escaped there."""
    content = one_line("" if value is None else value)
    if not content:
        return "` `"
    longest = max((len(run) for run in _BACKTICK_RUNS.findall(content)), default=0)
    fence = "`" * (longest + 1)
    if content.startswith("`") or content.endswith("`"):
        content = f" {content} "
    if in_table:
        content = content.replace("|", "\\|")
    return f"{fence}{content}{fence}"


def num(value: object, digits: int = 2) -> str:
    """A number with fixed decimals, half up as people round (14.2575 → 14.258), or '-'.

    Means of floats carry binary noise (14.2575 may be 14.257499999999999 or …0001
    depending on summation order); rounding to 9 places first makes the display stable.
    A value that is no finite number (NaN, ±inf) is shown as '-' too.
    """
    if value is None:
        return "-"
    number = float(value)
    if not math.isfinite(number):
        return "-"
    exact = Decimal(repr(round(number, 9)))
    return str(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def signed(value: object, digits: int = 2) -> str:
    """A change with its sign (+0.25, -1.00, 0.00), or '-' when there is none."""
    shown = num(value, digits)
    if shown == "-":
        return shown
    if float(shown) == 0:
        return shown.lstrip("-")  # -0.0001 rounds to 0.00, not -0.00
    return shown if shown.startswith("-") else f"+{shown}"


def percent_change(value: object) -> str:
    """A percent change with its sign (+12.5%), or '-' when not measurable."""
    shown = signed(value, 1)
    return shown if shown == "-" else f"{shown}%"


def shell_quote(value: object) -> str:
    """A file name as one shell word (quoted when it needs it), on one line."""
    return shlex.quote(one_line(value))


def pct(value: object, digits: int = 1) -> str:
    """A ratio as a percentage, or '-' when missing."""
    if value is None or not math.isfinite(float(value)):
        return "-"
    return f"{float(value) * 100:.{digits}f}%"


def fixed(value: object, digits: int = 2) -> str:
    """A number with fixed decimals as Python's format rounds it (half to even on the binary
    value: 0.125 → 0.12), or '-': the RAG report's figures (`num` rounds half up)."""
    return "-" if value is None else f"{value:.{digits}f}"


def share(value: object, numerator: object, denominator: object) -> str:
    """A share with the counts it comes from, as the RAG report shows it: 50.0% (1/2); '-'
    when there is none."""
    return "-" if value is None else f"{pct(value)} ({numerator}/{denominator})"


def interval(row: Mapping | None, column: str, digits: int = 2, as_pct: bool = False) -> str:
    """' (95% CI low–high)' of a figure from its row's `<column>_ci_low` / `_ci_high`, or ''
    when the row has no interval for it."""
    if not row:
        return ""
    low, high = row.get(f"{column}_ci_low"), row.get(f"{column}_ci_high")
    if low is None or high is None:
        return ""
    shown = (pct(low), pct(high)) if as_pct else (num(low, digits), num(high, digits))
    return f" (95% CI {shown[0]}–{shown[1]})"


def p_value(value: object) -> str:
    """A p-value as people read it: p = 0.83, p = 0.041, p < 0.001."""
    if value is None:
        return "p = -"
    number = float(value)
    if number < 0.001:
        return "p < 0.001"
    return f"p = {number:.3f}" if number < 0.1 else f"p = {number:.2f}"


def change(value: object, as_share: bool = False, plus: bool = True) -> str:
    """A change of a figure with its sign: +0.25 on a 0-5 score, -5.3%p on a rate (an
    interval's bounds without the plus: -0.25–0.03)."""
    scaled = None if value is None or not as_share else float(value) * 100
    shown = signed(scaled, 1) if as_share else signed(value, 2)
    if not plus:
        shown = shown.lstrip("+")
    return shown if shown == "-" or not as_share else f"{shown}%p"


_MISSING = object()


class ReportEnvironment(Environment):
    """Jinja's environment for reports, whose rows are dicts: `row.column` looks the key up
    first. Jinja tries the attribute first, and a dict's failed attribute lookup raises an
    exception: 620k of them in the report of a 1M-row build."""

    def getattr(self, obj: object, attribute: str) -> object:
        if type(obj) is dict:
            found = obj.get(attribute, _MISSING)
            if found is not _MISSING:
                return found
        return super().getattr(obj, attribute)


def _without_controls(value: object) -> object:
    """A last guard for literal template text mixed with values (most values are
    printable, which str.isprintable tells without a regular expression)."""
    if isinstance(value, str) and not value.isprintable():
        return _CONTROLS.sub("", value)
    return value


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = ReportEnvironment(
        loader=PackageLoader("agent_scoring", "templates"),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        # compiled templates kept in the user's temp directory: reports start faster
        bytecode_cache=FileSystemBytecodeCache(),
    )
    env.filters["cell"] = cell
    env.filters["text"] = text
    env.filters["heading"] = text
    env.filters["code"] = code
    env.filters["num"] = num
    env.filters["pct"] = pct
    env.filters["fixed"] = fixed
    env.filters["share"] = share
    env.filters["signed"] = signed
    env.filters["percent_change"] = percent_change
    env.filters["shell_quote"] = shell_quote
    env.filters["ci"] = interval
    env.filters["p_value"] = p_value
    env.filters["change"] = change
    env.finalize = _without_controls
    return env


def render(template: str, context: dict) -> str:
    return environment().get_template(template).render(**context)
