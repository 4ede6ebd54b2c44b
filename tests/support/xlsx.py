"""Writing exports as the platform does: an xlsx workbook with one `validation_history` sheet."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

import openpyxl

NUMERIC_HEADERS = {"Ordinal", "LLM 점수", "의도충족 점수", "정확성 점수", "일관성 점수",
                   "속도(SINGLE) 점수", "속도(MULTI) 점수", "안정성 점수"}


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


def cell_value(header: str, text: str) -> object:
    """What the platform writes: numbers as numbers, empty cells empty, the rest text."""
    if text == "":
        return None
    if header in NUMERIC_HEADERS:
        try:
            number = float(text)
        except ValueError:
            return text
        return int(number) if number.is_integer() else number
    return text


def write_xlsx(
    path: Path,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    sheet: str = "validation_history",
    before: Sequence[str] = (),
) -> Path:
    """`rows` as cells under `header`; `before` adds other sheets in front of it."""
    book = openpyxl.Workbook()
    first = book.active
    for index, name in enumerate([*before, sheet]):
        ws = first if index == 0 else book.create_sheet()
        ws.title = name
        if name == sheet:
            ws.append(list(header))
            for row in rows:
                ws.append([cell_value(h, v) if isinstance(v, str) else v
                           for h, v in zip(header, row, strict=False)]
                          + list(row[len(header):]))
        else:
            ws.append(["메모"])
            ws.append(["이 시트는 내보내기가 아닙니다"])
    book.save(path)
    return path
