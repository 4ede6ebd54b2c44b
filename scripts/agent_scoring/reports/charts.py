"""Mermaid charts (xychart-beta) for the markdown reports: the data of each chart, ready for
the `_charts.md.j2` macros. A chart never replaces a table: every number it draws is in a
table beside it. xychart-beta has no legend and draws bars of one category on top of each
other, so several series are lines and the title names them in order."""

from __future__ import annotations

import math

from agent_scoring.markdown import one_line

SCORES = range(6)


def labels(texts: list[str]) -> str:
    """x-axis categories, quoted for mermaid (a double quote inside becomes a single one)."""
    return ", ".join('"' + one_line(t).replace('"', "'") + '"' for t in texts)


def title(text: str) -> str:
    """A chart title on one line, without the double quotes that would end it."""
    return one_line(text).replace('"', "'")


def axis_max(values: list[float]) -> float:
    """A round top for a y-axis over `values` (at least 1)."""
    top = max([v for v in values if v is not None] or [0])
    if top <= 0:
        return 1
    step = 10 ** math.floor(math.log10(top))
    return math.ceil(top * 1.1 / step) * step


def score_lines(rows: list[dict], of: str = "") -> dict | None:
    """The 0-5 distribution per round (`distribution()` rows; the set's row left out) as one
    line per round (`of`: whose items, for the title); None when no item has a score."""
    rounds = [r for r in rows if r["label"] != "세트"]
    if not any(sum(r["buckets"]) for r in rounds):
        return None
    names = ", ".join(one_line(r["label"]) for r in rounds)
    return {
        "title": title(f"의도 충족 0~5점별 문항 수{' · ' + of if of else ''} (회차별 선: {names})"),
        "x": labels([f"{s}점" for s in SCORES]),
        "series": [[str(n) for n in r["buckets"]] for r in rounds],
        "y_max": axis_max([n for r in rounds for n in r["buckets"]]),
    }


def band_bars(rows: list[dict], bands: list[str] | None, of: str = "세트") -> dict | None:
    """The items of the whole set per speed band, most points (fastest) first
    (`distribution()` rows of the per-item speed points; `bands` the rubric's band names when
    the file has one rubric); None when no item is timed."""
    total = next(r for r in rows if r["label"] == "세트")
    fastest_first = list(reversed(total["buckets"]))
    if not any(fastest_first):
        return None
    return {
        "title": title(f"응답 시간: 속도 구간별 문항 수 ({of})"),
        "x": labels(bands or [f"{s}점" for s in reversed(SCORES)]),
        "series": [[str(n) for n in fastest_first]],
        "y_max": axis_max(fastest_first),
    }
