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
import itertools
import multiprocessing
import operator
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

CHUNK_BYTES = 1 << 24
# below this much input, starting processes costs more than it saves
PROCESS_MIN_BYTES = 1 << 27


class Scan(NamedTuple):
    """What one pass over a file found."""

    # data records by quote parity (None: not counted). Compared with DuckDB's only when
    # DuckDB rejected no record: an invalid UTF-8 byte makes it reject that record, so the
    # scan does not check the encoding.
    records: int | None
    content_hash: str  # md5 of its bytes: a file is read again only when it changes
    wide: bool  # a line holds max_fields field separators or more
    # every byte sequence is UTF-8 (DuckDB checks only the columns a query reads, so its
    # counting pass cannot tell)
    utf8: bool = False


def quote_states(quotes: list[int], in_quotes: int) -> list[int]:
    """The quote state before each line and after the last (1: inside a quoted cell), from
    each line's quote count. An escaped quote is two quotes, so it never flips the state
    (RFC 4180). C-speed: accumulate, no loop."""
    return list(itertools.accumulate(map(operator.and_, quotes, itertools.repeat(1)),
                                     operator.xor, initial=in_quotes))


def record_starts(lines: list[bytes], states: list[int]) -> int:
    """Non-blank records starting on these lines: a line starts one when it starts outside
    quotes (`states`: quote_states of the lines)."""
    starts = states.count(0) - (states[-1] == 0)
    if lines.count(b"") or lines.count(b"\r"):  # blank lines are not records
        starts -= sum(1 for line, quoted in zip(lines, states[:-1], strict=True)
                      if not quoted and line in (b"", b"\r"))
    return starts


def wide_line_among(lines: list[bytes], states: list[int], max_fields: int) -> bool:
    """Whether one of `lines` (`states`: quote_states of the lines) holds max_fields commas
    outside quotes. Commas are counted at C speed; only a line with that many commas at all
    (a long JSON cell has them inside its quotes) is split at its quotes. A malformed quote
    can make it say yes: the exact check (loader.bounds) follows only then."""
    many = list(map(operator.ge, map(bytes.count, lines, itertools.repeat(b",")),
                    itertools.repeat(max_fields)))
    for n in itertools.compress(range(len(lines)), many):
        # the segments between quotes alternate outside / inside from the line's state; an
        # adjacent pair of quotes (an escaped quote) leaves every comma on its side, so the
        # pairs go first (a JSON cell has thousands)
        segments = lines[n].replace(b'""', b"").split(b'"')[states[n]::2]
        if sum(map(bytes.count, segments, itertools.repeat(b","))) >= max_fields:
            return True
    return False


def content_hash(path: str | Path) -> str:
    """md5 of a file's bytes."""
    digest = hashlib.md5()
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
    digest = hashlib.md5()
    decoder, utf8 = codecs.getincrementaldecoder("utf-8")(), True
    records, in_quotes, pending, wide = 0, 0, b"", False
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
            utf8 = utf8 and utf8_continues(decoder, chunk)
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            states = quote_states(list(map(bytes.count, lines, itertools.repeat(b'"'))),
                                  in_quotes)
            records += record_starts(lines, states)
            wide = wide or wide_line_among(lines, states, max_fields)
            in_quotes = states[-1]
    if pending:
        states = quote_states([pending.count(b'"')], in_quotes)
        records += record_starts([pending], states)
        wide = wide or wide_line_among([pending], states, max_fields)
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
