"""Reading the platform's xlsx exports: one sheet, header on row 1, written out as a CSV that
the warehouse reads exactly like an exported CSV.

python-calamine reads the cells (DuckDB's excel extension cannot be downloaded here). Values
become the text a CSV export would hold: numbers without a spurious `.0` (`1.0` is `1`),
dates as ISO timestamps, booleans as true/false, empty cells as empty. A formula or an
error cell is not data the platform wrote: it is read as missing and listed (cell, header,
kind) so the report's data-quality section can say so. Line breaks inside cells are kept.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

SHEET = "validation_history"
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_OFFICE_RELS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_CELL_REF = re.compile(r"([A-Z]+)(\d+)")
_CELL_START = re.compile(rb'<c\b[^>]*?\br="([A-Z]{1,3})([0-9]+)"')
# The reader holds a sheet as a dense grid as wide as its farthest column and as tall as its
# last row (about 32 bytes a cell): one stray cell at XFD20000 would ask for 10 GB.
MAX_CELLS = 10_000_000


class XlsxError(Exception):
    """The workbook cannot be read as an export; the message says why, in the user's terms."""


@dataclass
class Sheet:
    name: str
    header: list[str]
    records: int = 0
    # (cell reference, header name, kind) of every cell read as missing: 'formula', 'error',
    # or 'outside_header' (a value right of the last header column)
    notes: list[tuple[str, str, str]] = field(default_factory=list)


def column_letters(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - 64
    return index - 1


def as_text(value: object) -> str:
    """A cell value as the text a CSV export holds."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value.total_seconds())
    return str(value)


def sheet_paths(book: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name → its XML part in the package."""
    workbook = ElementTree.fromstring(book.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{_RELS}Relationship")}
    found = {}
    for sheet in workbook.iter(f"{_MAIN}sheet"):
        target = targets.get(sheet.get(f"{_OFFICE_RELS}id"), "")
        part = target.lstrip("/") if target.startswith("/") else str(
            PurePosixPath("xl") / target)
        found[sheet.get("name", "")] = part
    return found


def formula_and_error_cells(path: Path, sheet_name: str) -> dict[tuple[int, int], str]:
    """(row, column) → 'formula' | 'error' for the cells of one sheet that hold a formula or
    an error value. Most exports have none: the XML is only parsed when it mentions one."""
    with zipfile.ZipFile(path) as book:
        part = sheet_paths(book).get(sheet_name)
        if part is None:
            return {}
        with book.open(part) as handle:
            data = handle.read()
    if b"<f" not in data and b't="e"' not in data:
        return {}
    found = {}
    for _, element in ElementTree.iterparse(io.BytesIO(data)):
        if element.tag != f"{_MAIN}c":
            continue
        kind = ("error" if element.get("t") == "e"
                else "formula" if element.find(f"{_MAIN}f") is not None else None)
        if kind:
            letters, row = _CELL_REF.fullmatch(element.get("r", "")).groups()
            found[(int(row) - 1, column_index(letters))] = kind
        element.clear()
    return found


def check_area(path: Path, sheet_name: str) -> None:
    """Refuse a sheet whose cells span an absurd area, before the reader allocates it."""
    with zipfile.ZipFile(path) as book:
        part = sheet_paths(book).get(sheet_name)
        if part is None:
            return
        with book.open(part) as handle:
            data = handle.read()
    rows = columns = 0
    farthest = ""
    for letters, row in _CELL_START.findall(data):
        column = column_index(letters.decode()) + 1
        if column > columns or int(row) > rows:
            rows, columns = max(rows, int(row)), max(columns, column)
            farthest = f"{letters.decode()}{int(row)}"
    if rows * columns > MAX_CELLS:
        raise XlsxError(
            f"sheet {sheet_name!r} spans {columns} columns × {rows} rows (a cell as far as "
            f"{farthest}): more than {MAX_CELLS:,} cells to read; delete the cells outside "
            "the table and save it again"
        )


def choose_sheet(
    book, path: Path, required: list[str], declared: str | None = None
) -> tuple[str, list[list]]:
    """The export sheet: the one the agent declares (vars.agents.<agent>.sheet), else
    `validation_history`, else the first sheet whose first row has every required header."""
    names = list(book.sheet_names)
    if declared is not None:
        if declared not in names:
            raise XlsxError(
                f"no sheet {declared!r} (the sheet its agent declares) among "
                f"{', '.join(names) or 'none'}; export the run again or fix vars.agents"
            )
        check_area(path, declared)
        return declared, book.get_sheet_by_name(declared).to_python(skip_empty_area=False)
    candidates = [SHEET] if SHEET in names else names
    for name in candidates:
        check_area(path, name)
        rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        header = [as_text(v).replace("\ufeff", "").strip() for v in (rows[0] if rows else [])]
        if name == SHEET or all(column in header for column in required):
            return name, rows
    raise XlsxError(
        f"no sheet {SHEET!r}, and no sheet ({', '.join(names) or 'none'}) has the columns "
        f"{', '.join(required)} in its first row; export the validation history again"
    )


def open_book(path: Path):
    import python_calamine

    try:
        return python_calamine.CalamineWorkbook.from_path(str(path))
    except (python_calamine.CalamineError, OSError, ValueError) as exc:
        raise XlsxError(f"not a readable xlsx workbook ({exc}); save it again as .xlsx") from exc


def first_record(path: Path, sheet: str) -> dict[str, str] | None:
    """A settings sheet (header row, one row of values) as {header: text}; None when the
    workbook has no such sheet (a run written before the tool recorded its settings)."""
    book = open_book(path)
    if sheet not in book.sheet_names:
        return None
    check_area(path, sheet)
    rows = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    if not rows:
        return {}
    header = [as_text(v).strip() for v in rows[0]]
    values = [as_text(v) for v in rows[1]] if len(rows) > 1 else []
    values += [""] * (len(header) - len(values))
    return {name: value for name, value in zip(header, values, strict=False) if name}


def to_csv(path: Path, target: Path, required: list[str], declared: str | None = None) -> Sheet:
    """Write the export sheet of `path` as a UTF-8 CSV at `target` (CRLF records)."""
    name, rows = choose_sheet(open_book(path), path, required, declared)
    while rows and not any(as_text(v).strip() for v in rows[-1]):
        rows.pop()  # the sheet's used area may end in empty rows: they are no records
    if not rows:
        return Sheet(name=name, header=[])
    header = [as_text(v).replace("\ufeff", "").strip() for v in rows[0]]
    while header and not header[-1]:
        header.pop()  # the used area is as wide as the widest row, not as the header
    special = formula_and_error_cells(path, name)
    sheet = Sheet(name=name, header=header)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\r\n")
        writer.writerow(header)
        for row_index, row in enumerate(rows[1:], start=1):
            values = [as_text(v) for v in row]
            for column in range(len(header), len(values)):
                if values[column].strip():
                    sheet.notes.append((f"{column_letters(column)}{row_index + 1}", "",
                                        "outside_header"))
            values = values[: len(header)] + [""] * (len(header) - len(values))
            for column in range(len(values)):
                kind = special.get((row_index, column))
                if kind:
                    values[column] = ""
                    sheet.notes.append((f"{column_letters(column)}{row_index + 1}",
                                        header[column], kind))
            writer.writerow(values)
            sheet.records += 1
    return sheet
