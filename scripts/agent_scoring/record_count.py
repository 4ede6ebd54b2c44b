"""Count a CSV export's data records in Python, independently of DuckDB's CSV reader.

The loader compares this count with DuckDB's for every file (SCORING §0: nothing is
dropped silently); for a million rows it is the costliest part of reading a file, so it
runs in other processes while DuckDB scans.
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

CHUNK_BYTES = 1 << 24
# below this much input, starting processes costs more than it saves
PROCESS_MIN_BYTES = 1 << 27


def record_starts(lines: list[bytes], in_quotes: int) -> tuple[int, int]:
    """(non-blank records starting on these lines, quote parity after the last line).

    A line starts a record when an even number of quotes precede it (RFC 4180: an escaped
    quote is two quotes, so it never flips the parity). C-speed: map/accumulate, no loop.
    """
    odd = map(operator.and_, map(bytes.count, lines, itertools.repeat(b'"')),
              itertools.repeat(1))
    after = list(itertools.accumulate(odd, operator.xor, initial=in_quotes))
    before = after[:-1]
    starts = before.count(0)
    if lines.count(b"") or lines.count(b"\r"):  # blank lines are not records
        starts -= sum(1 for line, quoted in zip(lines, before, strict=True)
                      if not quoted and line in (b"", b"\r"))
    return starts, after[-1]


def content_hash(path: str | Path) -> str:
    """md5 of a file's bytes: the loader re-reads a file only when it changes."""
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def quick_record_count(read_path: str) -> tuple[int | None, str]:
    """(data records of a UTF-8 file by quote parity, or None when it is not valid UTF-8;
    md5 of its bytes), in one pass."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    digest = hashlib.md5()
    records, in_quotes, pending, valid = 0, 0, b"", True
    with open(read_path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
            if not valid:
                continue
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError:
                valid = False
                continue
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            starts, in_quotes = record_starts(lines, in_quotes)
            records += starts
    if valid:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            valid = False
    if not valid:
        return None, digest.hexdigest()
    records += record_starts([pending], in_quotes)[0] if pending else 0
    return max(records - 1, 0), digest.hexdigest()  # the header


class RecordCounter:
    """Counts the records of `paths` in the background; `result(path)` waits for one.

    Processes where they pay off (fork: no re-import of dbt in the workers), else a thread.
    """

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self.pool: Executor | None = None

    def __enter__(self) -> RecordCounter:
        total = sum(os.path.getsize(path) for path in self.paths)
        workers = os.cpu_count() or 1
        if (total >= PROCESS_MIN_BYTES and workers > 1
                and "fork" in multiprocessing.get_all_start_methods()):
            self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
        else:
            self.pool = ThreadPoolExecutor(1)
        self.futures = {path: self.pool.submit(quick_record_count, path) for path in self.paths}
        return self

    def result(self, path: str) -> tuple[int | None, str]:
        """(record count or None, content hash) of one of the paths; waits for it."""
        return self.futures[path].result()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=error is not None)
