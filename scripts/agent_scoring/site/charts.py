"""Charts of the run browser as inline SVG: the markdown reports' own mermaid xychart blocks
(so a page draws exactly the numbers its report does) and the index's trend per agent. Only
layout is computed here; every value comes from the marts through the report or run_trends."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 36, 64


@dataclass(frozen=True)
class Series:
    kind: str  # line or bar
    values: list[float | None]


@dataclass(frozen=True)
class Chart:
    title: str
    x: list[str]
    y_label: str
    y_min: float
    y_max: float
    series: list[Series] = field(default_factory=list)


class NotAChart(ValueError):
    """A mermaid block the site does not draw (its text is shown instead)."""


def number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def parse_xychart(text: str) -> Chart:
    """A mermaid `xychart-beta` block as the reports write it (templates/_charts.md.j2)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or lines[0] != "xychart-beta":
        raise NotAChart(lines[0] if lines else "empty")
    title, x, y_label, y_min, y_max, series = "", [], "", 0.0, 1.0, []
    for line in lines[1:]:
        if line.startswith("title "):
            title = line[6:].strip().strip('"')
        elif line.startswith("x-axis "):
            inner = line[line.index("[") + 1:line.rindex("]")]
            x = re.findall(r'"([^"]*)"', inner)
        elif line.startswith("y-axis "):
            found = re.match(r'y-axis\s+"([^"]*)"\s+(\S+)\s+-->\s+(\S+)', line)
            if not found:
                raise NotAChart(line)
            y_label = found.group(1)
            y_min, y_max = float(found.group(2)), float(found.group(3))
        elif line.startswith(("line ", "bar ")):
            kind, rest = line.split(" ", 1)
            inner = rest[rest.index("[") + 1:rest.rindex("]")]
            series.append(Series(kind, [number(v.strip()) for v in inner.split(",")]))
        elif line:
            raise NotAChart(line)
    return Chart(title, x, y_label, y_min, y_max, series)


def layout(chart: Chart) -> dict:
    """Coordinates for templates/_chart.svg.j2: axes, ticks, bars and polylines."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = (chart.y_max - chart.y_min) or 1.0
    count = max(len(chart.x), 1)
    step = plot_w / count

    def y_of(value: float) -> float:
        clipped = min(max(value, chart.y_min), chart.y_max)
        return round(TOP + plot_h - (clipped - chart.y_min) / span * plot_h, 1)

    ticks = [chart.y_min + span * i / 4 for i in range(5)]
    bars_series = [s for s in chart.series if s.kind == "bar"]
    bar_w = step * 0.7 / max(len(bars_series), 1)
    bars, lines = [], []
    for n, series in enumerate(chart.series):
        if series.kind == "bar":
            b = bars_series.index(series)
            for i, value in enumerate(series.values[:count]):
                if value is None:
                    continue
                x = LEFT + step * i + step * 0.15 + bar_w * b
                bars.append({"x": round(x, 1), "y": y_of(value), "w": round(bar_w, 1),
                             "h": round(y_of(chart.y_min) - y_of(value), 1), "n": n,
                             "label": f"{chart.x[i] if i < len(chart.x) else i}: {value:g}"})
        else:
            points = [(round(LEFT + step * (i + 0.5), 1), y_of(v), v, i)
                      for i, v in enumerate(series.values[:count]) if v is not None]
            lines.append({"n": n, "points": " ".join(f"{x},{y}" for x, y, _, _ in points),
                          "dots": [{"x": x, "y": y, "label":
                                    f"{chart.x[i] if i < len(chart.x) else i}: {v:g}"}
                                   for x, y, v, i in points]})
    return {
        "chart": chart, "width": WIDTH, "height": HEIGHT, "left": LEFT, "top": TOP,
        "right": WIDTH - RIGHT, "bottom": TOP + plot_h,
        "ticks": [{"y": y_of(t), "label": f"{t:g}"} for t in ticks],
        "labels": [{"x": round(LEFT + step * (i + 0.5), 1), "text": text}
                   for i, text in enumerate(chart.x)],
        "bars": bars, "lines": lines,
    }


def trend(title: str, runs: list[dict], columns: list[str], y_label: str,
          y_max: float = 5.0) -> Chart | None:
    """A line per column over an agent's runs (run_trends rows, oldest first)."""
    if len(runs) < 1:
        return None
    return Chart(title, [f"{r['run_seq']}. {r['source_file']}" for r in runs], y_label, 0.0,
                 y_max, [Series("line", [r[c] for r in runs]) for c in columns])
