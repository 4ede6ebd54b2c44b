"""How one export file is read: its encoding, its header, and the copy DuckDB reads.

DuckDB reads only UTF-8 CSV, so this decides how every file is read before any SQL touches
it: UTF-8 (with or without BOM) is read in place; UTF-16 and CP949 (what Korean Excel saves)
are transcoded to UTF-8 copies; an xlsx export (the platform's) is written out as a UTF-8 CSV
copy of its sheet (agent_scoring.xlsx); anything else is refused with a reason. The header is
mapped by name (seeds/export_columns.csv), so nothing later depends on column order.
"""

from __future__ import annotations

import codecs
import csv
import errno
import hashlib
import io
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

SNIFF_BYTES = 1 << 16

# A quoted field (only where a field starts), a record terminator outside quotes, or a
# stray quote (one that neither opens nor closes a field: the quoting is broken).
_FIELD_OR_NEWLINE = re.compile(r'(?<![^,\r\n])"[^"]*(?:""[^"]*)*"|\r\n|\r|\n|"')


@dataclass
class Inspection:
    """What reading a file needs, or why it cannot be read (problem_code / problem)."""

    encoding: str | None
    read_path: str
    read_from: str = "original"
    header: list[str] = field(default_factory=list)
    column_names: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    problem_code: str | None = None
    problem: str | None = None
    sheet_name: str | None = None
    cell_notes: list[dict] = field(default_factory=list)
    # extra_<n> read name -> its key in extra_columns; (column, read name) copies
    json_keys: dict[str, str] = field(default_factory=dict)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    # xlsx: the first data row of the agent's settings sheet, {header: text}
    settings: dict[str, str] | None = None


def detect_encoding(head: bytes) -> str | None:
    """Name the codec a file's first bytes decode with, or None when none fits."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\x00" in head[:2048]:
        # UTF-16 without a BOM: ASCII header letters leave every other byte zero
        sample = head[:2048]
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        # (a Hangul syllable such as U+C900 has a zero low byte now and then)
        if odd > len(sample) // 4 and even * 10 < odd:
            return "utf-16-le"
        if even > len(sample) // 4 and odd * 10 < even:
            return "utf-16-be"
        return None
    for name in ("utf-8", "cp949"):
        try:
            codecs.getincrementaldecoder(name)().decode(head, final=False)
        except UnicodeDecodeError:
            continue
        return name
    return None


def header_of(text: str) -> list[str]:
    """The first CSV record, names trimmed and a stray BOM removed."""
    first = next(csv.reader(io.StringIO(text, newline="")), [])
    return [name.replace("\ufeff", "").strip() for name in first]


def copy_path(path: Path, out_dir: Path, suffix: str) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    return out_dir / f"{path.stem}.{digest}.{suffix}.csv"


def transcode(path: Path, encoding: str, out_dir: Path) -> Path:
    """Write a UTF-8 copy of a file DuckDB cannot read as is (strict: never mis-decodes)."""
    target = copy_path(path, out_dir, "utf8")
    text = path.read_bytes().decode(encoding)
    target.write_text(text.lstrip("\ufeff"), encoding="utf-8", newline="")
    return target


def newline_counts(text: str) -> tuple[int, int, int]:
    """(CRLF, bare LF or CR) record terminators outside quoted fields, and stray quotes."""
    crlf = other = stray = 0
    for match in _FIELD_OR_NEWLINE.finditer(text):
        token = match.group()
        if token == "\r\n":
            crlf += 1
        elif token in ("\n", "\r"):
            other += 1
        elif token == '"':
            stray += 1
    return crlf, other, stray


def normalize_newlines(source: Path, original: Path, out_dir: Path) -> Path | None:
    """A copy whose records all end in CRLF, or None unless the endings are mixed.

    Only a file whose quoting is intact qualifies: after a broken quote nobody can tell a
    line break inside a cell from one between records, so such a file is not rewritten.
    """
    with open(source, encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
        text = handle.read()
    crlf, other, stray = newline_counts(text)
    if not (crlf and other) or stray:
        return None
    fixed = _FIELD_OR_NEWLINE.sub(
        lambda m: m.group() if m.group().startswith('"') else "\r\n", text
    )
    target = copy_path(original, out_dir, "crlf")
    target.write_text(fixed, encoding="utf-8", errors="surrogateescape", newline="")
    return target


def mapped_columns(
    header: list[str], columns: dict, landed: set[str] | None = None
) -> tuple[list[str], dict[str, str], list[tuple[str, str]]]:
    """How each header name is read: (read names, JSON keys, aliases).

    A header the agent's map or the dictionary gives a landing column is read under that
    column's name; any other (unknown, an alias whose column an earlier header already
    gave, or a name of the agent's own that is no landing column) as extra_<n>, kept in
    extra_columns under its JSON key (the agent's name for it, else the header). A header
    mapped to several columns (an `ID` that is both the item and the query) is read once
    and copied: aliases are (column, read name)."""
    known = {name: spec[0] for name, spec in columns.items()}
    mapped: list[str] = []
    keys: dict[str, str] = {}
    aliases: list[tuple[str, str]] = []
    for i, name in enumerate(header):
        targets = [c for c in known.get(name) or () if c not in mapped]
        read = f"extra_{i + 1}"
        if targets and (landed is None or targets[0] in landed):
            read = targets[0]
        elif targets:
            keys[read] = targets[0]
        else:
            keys[read] = name
        mapped.append(read)
        for alias in targets[1:]:
            if landed is None or alias in landed:
                aliases.append((alias, read))
    return mapped, keys, aliases


def agent_columns(
    dictionary: dict[str, str], required: list[str], own: dict[str, list[str]] | None = None
) -> dict:
    """header name -> (English columns, required) for one agent's files: the agent's own
    header map (vars.agents.<agent>.headers) over the dictionary."""
    columns = {name: ((column,), name in required) for name, column in dictionary.items()}
    for name, targets in (own or {}).items():
        columns[name] = (tuple(targets), name in required)
    for name in required:
        columns.setdefault(name, ((), True))
    return columns


def files_by_agent(input_dir: Path, patterns: dict[str, list[str]]) -> dict[Path, str]:
    """Every entry matching an agent's patterns (files, and whatever else carries such a name:
    see odd_entry), with its agent. An entry two agents' patterns match belongs to the longer
    (more specific) pattern."""
    found: dict[Path, tuple[int, str]] = {}
    for agent, agent_patterns in sorted(patterns.items()):
        for pattern in agent_patterns:
            for path in input_dir.glob(pattern):
                if len(pattern) > found.get(path, (-1, ""))[0]:
                    found[path] = (len(pattern), agent)
    return {path: agent for path, (_, agent) in sorted(found.items())}


# why an entry cannot even be opened as an export: listed, never read
ENTRY_PROBLEMS = ("not_a_file", "dangling_symlink", "symlink_loop", "unreadable_file",
                  "duplicate_name", "unclaimed")


def odd_entry(path: Path) -> tuple[str, str] | None:
    """(problem_code, problem) for an entry that is not a readable regular file, else None.
    A FIFO or device is never opened (opening a FIFO waits for a writer)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return "dangling_symlink", f"a symbolic link to {os.readlink(path)}, which does not exist"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink_loop", "a symbolic link that leads back to itself (a loop)"
        return "unreadable_file", f"cannot be read ({exc.strerror})"
    if stat.S_ISDIR(info.st_mode):
        return "not_a_file", "a folder, not an export file"
    if not stat.S_ISREG(info.st_mode):
        kind = "FIFO" if stat.S_ISFIFO(info.st_mode) else "socket or device"
        return "not_a_file", f"a {kind}, not an export file: never opened"
    try:
        path.open("rb").close()
    except OSError as exc:
        return "unreadable_file", f"cannot be read ({exc.strerror}); check its permissions"
    return None


def is_plain_utf8(path: Path) -> bool:
    """A CSV DuckDB can read in place (what the quick record count can count)."""
    if path.suffix.lower() == ".xlsx":
        return False
    with path.open("rb") as handle:
        return detect_encoding(handle.read(SNIFF_BYTES)) in ("utf-8", "utf-8-sig")


def inspect_file(
    path: Path, columns: dict, copy_dir: Path, landed: set[str] | None = None,
    sheet: str | None = None, settings_sheet: str | None = None,
) -> Inspection:
    """Decide how to read one file; never raises for bad content, only records why it is
    unusable. `landed`: the landing table's columns; `sheet` / `settings_sheet`: the xlsx
    sheets the agent declared for its rows and its run settings."""
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    found = Inspection(encoding=detect_encoding(head), read_path=str(path))
    if path.suffix.lower() == ".xlsx" and head:
        found.encoding, found.read_from = "xlsx", "xlsx"
        required = [name for name, (_, needed) in columns.items() if needed]
        from agent_scoring import xlsx  # only a build with an xlsx pays for loading it

        target = copy_path(path, copy_dir, "xlsx")
        try:
            rows = xlsx.to_csv(path, target, required, sheet)
            if settings_sheet:
                found.settings = xlsx.first_record(path, settings_sheet)
        except xlsx.XlsxError as exc:
            found.problem_code, found.problem = "unreadable_xlsx", str(exc)
        else:
            found.read_path, found.header, found.sheet_name = str(target), rows.header, rows.name
            found.cell_notes = [
                {"cell": cell, "header_name": name, "kind": kind}
                for cell, name, kind in rows.notes
            ]
    elif not head:
        found.problem_code = "empty_file"
        found.problem = "file is empty (no header); export it again"
    elif found.encoding is None:
        found.problem_code = "undecodable"
        found.problem = "file is neither UTF-8, UTF-16 nor CP949; re-save it as CSV UTF-8"
    else:
        try:
            if found.encoding not in ("utf-8", "utf-8-sig"):
                found.read_path = str(transcode(path, found.encoding, copy_dir))
                found.read_from = "transcoded"
            text = codecs.getincrementaldecoder(found.encoding)(errors="replace").decode(head)
            found.header = header_of(text)
        except UnicodeDecodeError as exc:
            found.problem_code = "undecodable"
            found.problem = (
                f"file is not valid {found.encoding} at byte {exc.start}; "
                "re-save it as CSV UTF-8"
            )
    if found.problem is None and not any(found.header):
        found.problem_code = "empty_file"
        found.problem = "file has no header row (blank lines or only a BOM); export it again"
    header = found.header
    found.column_names, found.json_keys, found.aliases = mapped_columns(header, columns, landed)
    if found.problem is None:
        found.missing = [
            name for name, (_, required) in columns.items() if required and name not in header
        ]
    found.unknown = [name for name in header if name not in columns]
    duplicated = sorted({name for name in header if name and header.count(name) > 1})
    if found.problem is None and duplicated:
        found.problem_code = "duplicate_column"
        found.problem = (
            f'column "{duplicated[0]}" appears more than once in the header; '
            "keep one and export again"
        )
    return found
