"""Bring the RAG evaluation's files into the landing table `raw.rag_documents`, which dbt
reads as the source `rag.rag_documents`: one row per file with its JSON text, or why it
cannot be read. The staging models parse the JSON with the engine's JSON functions.

A JSON file (dataset, judge report) lands as its text. A CSV file (hallucination labels)
lands as a JSON array of its data rows, each an object keyed by header name, trimmed and
lower-cased (`Question_ID ` is question_id), so every document is read the same way. A file
whose content hash did not change is not read again; a deleted file's row goes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path

import duckdb

from agent_scoring.loader.inspect import odd_entry

DOCUMENTS_TABLE = """
create table if not exists raw.rag_documents (
    kind varchar not null,
    source_path varchar not null,
    source_file varchar not null primary key,
    size_bytes bigint not null,
    content_hash varchar not null,
    document varchar,
    problem varchar,
    loaded_at timestamp not null,
    check ((document is null) <> (problem is null))
)
"""


class DocumentError(Exception):
    """The file cannot be read as its kind says: the message says where and why."""


def decoded(content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"not UTF-8: byte {exc.start + 1} cannot be decoded "
                            "(save the file as UTF-8)") from exc


def json_document(content: bytes) -> str:
    """The file's JSON text, once it is known to parse."""
    text = decoded(content)
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError(f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                            f"column {exc.colno}") from exc
    return text


def csv_document(content: bytes) -> str:
    """The CSV's data rows as a JSON array of objects keyed by trimmed, lower-cased header
    name; a row shorter than the header lacks the missing keys (they read as null)."""
    rows = list(csv.reader(io.StringIO(decoded(content), newline="")))
    if not rows:
        raise DocumentError("empty: no header row")
    header = [name.strip().lower() for name in rows[0]]
    doubled = sorted({name for name in header if header.count(name) > 1})
    if doubled:
        raise DocumentError(f"column {doubled[0]!r} appears twice in the header")
    records = [dict(zip(header, row, strict=False)) for row in rows[1:] if row]
    return json.dumps(records, ensure_ascii=False)


def read_document(path: Path, content: bytes) -> tuple[str | None, str | None]:
    """(document, problem): exactly one of the two is set."""
    try:
        text = csv_document(content) if path.suffix.lower() == ".csv" else json_document(content)
    except DocumentError as exc:
        return None, str(exc)
    return text, None


def documents_in(input_dir: Path, patterns: dict[str, str]) -> dict[Path, str]:
    """Each file of `input_dir` a pattern matches, with the kind of its pattern."""
    return {path: kind for kind, pattern in patterns.items()
            for path in sorted(input_dir.glob(pattern))}


def load_documents(
    con: duckdb.DuckDBPyConnection,
    input_dir: Path,
    patterns: dict[str, str],
    log: Callable[[str], None] = print,
) -> list[dict]:
    """Land every file of `input_dir` that `patterns` ({kind: glob}) match; one entry per
    file found or gone: source_file, kind, action (kept, loaded, refused, removed), problem."""
    con.execute("create schema if not exists raw")
    con.execute(DOCUMENTS_TABLE)
    stored = {path: (digest, problem) for path, digest, problem in con.execute(
        "select source_path, content_hash, problem from raw.rag_documents").fetchall()}
    found = documents_in(input_dir, patterns)
    actions: list[dict] = []
    con.execute("begin")
    for source_path in sorted(set(stored) - {str(path) for path in found}):
        name = Path(source_path).name
        con.execute("delete from raw.rag_documents where source_path = ?", [source_path])
        actions.append({"source_file": name, "kind": None, "action": "removed", "problem": None})
    for path, kind in found.items():
        odd = odd_entry(path)  # a folder, a FIFO, a broken link: never opened
        content = b"" if odd else path.read_bytes()
        digest = hashlib.md5(content).hexdigest()
        earlier = stored.get(str(path))
        if not odd and earlier and earlier[0] == digest:  # refused stays refused until changed
            actions.append({"source_file": path.name, "kind": kind, "action": "kept",
                            "problem": earlier[1]})
            continue
        document, problem = (None, odd[1]) if odd else read_document(path, content)
        con.execute("delete from raw.rag_documents where source_path = ? or source_file = ?",
                    [str(path), path.name])
        con.execute("insert into raw.rag_documents values (?, ?, ?, ?, ?, ?, ?, "
                    "current_localtimestamp())",
                    [kind, str(path), path.name, len(content), digest, document, problem])
        action = "refused" if problem else "loaded"
        actions.append({"source_file": path.name, "kind": kind, "action": action,
                        "problem": problem})
        log(f"{action} {path}" + (f": {problem}" if problem else ""))
    con.execute("commit")
    for kind, pattern in patterns.items():
        if kind not in found.values():
            log(f"note: no {pattern} in {input_dir}; RAG tables built from it are empty")
    return actions
