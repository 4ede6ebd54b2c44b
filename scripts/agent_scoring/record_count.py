"""One pass of Python over an export's bytes, independent of DuckDB's CSV reader: its
content hash, its data records, whether a line is too wide to hand to DuckDB, and whether
its bytes are all UTF-8 (staging may then read it in place: loader.land.direct_candidates).

The loader compares the record count with DuckDB's for every file (SCORING §0: nothing is
dropped silently); for a million rows this pass is the costliest part of reading a file, so
it runs in other processes, ahead of DuckDB's reads.
"""

from __future__ import annotations

import codecs
import hashlib
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np

CHUNK_BYTES = 1 << 24
# below this much input, starting processes costs more than it saves
PROCESS_MIN_BYTES = 1 << 27
QUOTE, NEWLINE, CR, COMMA = b'"\n\r,'


class Scan(NamedTuple):
    """What one pass over a file found."""

    # data records by quote parity (None: not counted). Compared with DuckDB's only when
    # DuckDB rejected no record: an invalid UTF-8 byte makes it reject that record, so the
    # scan does not check the encoding.
    records: int | None
    content_hash: str  # sha256 of its bytes: a file is read again only when it changes
    wide: bool  # a line holds max_fields field separators or more
    # every byte sequence is UTF-8 (DuckDB checks only the columns a query reads, so its
    # counting pass cannot tell)
    utf8: bool = False


def _line_counts(buf: bytes, in_quotes: int, max_fields: int) -> tuple[int, bool, int]:
    """(records starting in `buf`, whether a line of it is wide, the quote state after it)
    for `buf`: whole lines, each ending in a newline, read from quote state `in_quotes`.

    Positions, not lines: numpy finds every quote, newline and comma at C speed, and the
    quote state before a byte is the parity of the quotes before it. An escaped quote is
    two quotes, so it never flips the state (RFC 4180)."""
    data = np.frombuffer(buf, np.uint8)
    quotes = np.flatnonzero(data == QUOTE)
    ends = np.flatnonzero(data == NEWLINE)
    starts = np.concatenate(([0], ends[:-1] + 1))
    # the state before each line: 0 (outside quotes) starts a record
    outside = (np.searchsorted(quotes, starts) + in_quotes) % 2 == 0
    # blank lines are not records: nothing, or a lone CR, before the newline
    length = ends - starts
    blank = (length == 0) | ((length == 1) & (data[starts] == CR))
    records = int(np.count_nonzero(outside & ~blank))
    commas = np.flatnonzero(data == COMMA)
    # a line with max_fields commas at all (a JSON cell has many, inside its quotes) is
    # checked for that many outside quotes
    first, last = np.searchsorted(commas, starts), np.searchsorted(commas, ends)
    wide = any(
        np.count_nonzero((np.searchsorted(quotes, commas[first[line]:last[line]]) + in_quotes)
                         % 2 == 0) >= max_fields
        for line in np.flatnonzero(last - first >= max_fields))
    return records, wide, (len(quotes) + in_quotes) % 2


def content_hash(path: str | Path) -> str:
    """sha256 of a file's bytes (hashlib's fastest here: twice md5's speed)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def utf8_continues(decoder: codecs.IncrementalDecoder, chunk: bytes, final: bool = False) -> bool:
    """Whether `chunk` goes on as UTF-8 from what `decoder` read before."""
    try:
        decoder.decode(chunk, final)
    except UnicodeDecodeError:
        return False
    return True


def scan_file(path: str, max_fields: int) -> Scan:
    """Hash, record count and wide-line check of one file, in one read."""
    digest = hashlib.sha256()
    decoder, utf8 = codecs.getincrementaldecoder("utf-8")(), True
    records, in_quotes, pending, wide = 0, 0, b"", False
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
            utf8 = utf8 and utf8_continues(decoder, chunk)
            buf = pending + chunk
            # whole lines now; the rest waits for the next chunk
            cut = buf.rfind(b"\n") + 1
            pending = buf[cut:]
            if cut:
                found, wide_here, in_quotes = _line_counts(buf[:cut], in_quotes, max_fields)
                records, wide = records + found, wide or wide_here
    if pending:
        found, wide_here, _ = _line_counts(pending + b"\n", in_quotes, max_fields)
        records, wide = records + found, wide or wide_here
    utf8 = utf8 and utf8_continues(decoder, b"", final=True)
    return Scan(max(records - 1, 0), digest.hexdigest(), wide, utf8)  # less the header


class FileScanner:
    """Scans `paths` in the background: `futures[path]` is the scan of one.

    Processes where they pay off (fork: no re-import of dbt in the workers), else a thread.
    """

    def __init__(self, paths: list[str], max_fields: int) -> None:
        self.paths = paths
        self.max_fields = max_fields
        self.pool: Executor | None = None

    def __enter__(self) -> FileScanner:
        total = sum(os.path.getsize(path) for path in self.paths)
        workers = os.cpu_count() or 1
        if (total >= PROCESS_MIN_BYTES and workers > 1
                and "fork" in multiprocessing.get_all_start_methods()):
            self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
        else:
            self.pool = ThreadPoolExecutor(1)
        self.futures = {path: self.pool.submit(scan_file, path, self.max_fields)
                        for path in self.paths}
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=error is not None)
