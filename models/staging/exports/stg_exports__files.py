"""One row per export CSV in the input directory: its encoding, header and readiness.

DuckDB reads only UTF-8, so this model decides how every file is read before any SQL
touches it: UTF-8 (with or without BOM) is read in place; UTF-16 and CP949 (what Korean
Excel saves) are transcoded to UTF-8 copies; anything else is refused with a reason.
The header is parsed here, by name, so later models never depend on column order.
"""

import codecs
import csv
import hashlib
import io
import os
from pathlib import Path

SNIFF_BYTES = 1 << 16


def detect_encoding(head: bytes) -> str | None:
    """Name the codec a file's first bytes decode with, or None when none fits."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
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


def transcode(path: Path, encoding: str, out_dir: Path) -> Path:
    """Write a UTF-8 copy of a file DuckDB cannot read as is."""
    out_dir.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    target = out_dir / f"{path.stem}.{digest}.utf8.csv"
    text = path.read_bytes().decode(encoding)
    target.write_text(text.lstrip("\ufeff"), encoding="utf-8", newline="")
    return target


def inspect_file(path: Path, agent: str, columns: dict, transcode_dir: Path) -> tuple:
    """Describe one file; never raises for bad content, only records why it is unusable."""
    stat = path.stat()
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    encoding = detect_encoding(head)
    read_path = str(path)
    header: list[str] = []
    problem = None
    if not head:
        problem = "file is empty (no header)"
    elif encoding is None:
        problem = "file is neither UTF-8, UTF-16 nor CP949; re-save it as UTF-8 CSV"
    else:
        try:
            if encoding in ("utf-16", "cp949"):
                read_path = str(transcode(path, encoding, transcode_dir))
            text = codecs.getincrementaldecoder(encoding)(errors="replace").decode(head)
            header = header_of(text)
        except UnicodeDecodeError as exc:
            problem = f"file is not valid {encoding} at byte {exc.start}; re-save it as UTF-8 CSV"
    known = {name: column for name, (column, _) in columns.items()}
    mapped = [known.get(name) for name in header]
    missing = [
        name for name, (_, required) in columns.items() if required and name not in header
    ]
    unknown = [name for name, column in zip(header, mapped) if column is None]
    duplicated = sorted({name for name in header if name and header.count(name) > 1})
    if problem is None and duplicated:
        problem = f'column "{duplicated[0]}" appears more than once in the header'
    return (
        agent,
        str(path),
        path.name,
        encoding,
        read_path,
        stat.st_size,
        int(stat.st_mtime),
        f"{stat.st_size}:{stat.st_mtime_ns}",
        header,
        [column or f"extra_{i + 1}" for i, column in enumerate(mapped)],
        missing,
        unknown,
        problem,
    )


def model(dbt, session):
    dbt.config(materialized="table")
    input_dir = Path(dbt.config.get("input_dir"))
    transcode_dir = Path(dbt.config.get("transcode_dir"))
    columns_by_agent: dict[str, dict] = {}
    for agent, header_name, column_name, is_required in dbt.ref("export_columns").fetchall():
        columns_by_agent.setdefault(agent, {})[header_name] = (column_name, bool(is_required))

    rows = []
    for agent, columns in sorted(columns_by_agent.items()):
        for path in sorted(input_dir.glob(f"{agent}_*.csv")):
            rows.append(inspect_file(path, agent, columns, transcode_dir))

    session.execute(
        """
        create or replace temp table export_files_found (
            agent varchar,
            source_path varchar,
            source_file varchar,
            encoding varchar,
            read_path varchar,
            size_bytes bigint,
            modified_epoch bigint,
            fingerprint varchar,
            header_names varchar[],
            column_names varchar[],
            missing_columns varchar[],
            unknown_columns varchar[],
            problem varchar
        )
        """
    )
    if rows:
        session.executemany(
            "insert into export_files_found values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
    return session.table("export_files_found")
