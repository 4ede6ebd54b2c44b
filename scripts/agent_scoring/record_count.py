"""One pass of Python over an export's bytes, independent of DuckDB's CSV reader: its
content hash, its data records and whether its bytes are all UTF-8 (staging may then read it
in place: loader.land.direct_candidates). Whether a line is too wide to hand to DuckDB is a
pass of its own, over the files the loader lands only.

The loader compares the record count with DuckDB's for every file (SCORING §0: nothing is
dropped silently); for a million rows this pass is the costliest part of reading a file, so
it runs in other processes, ahead of DuckDB's reads.
"""

from __future__ import annotations

import codecs
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np
import xxhash

# 1 MB: a chunk and numpy's arrays of it stay in cache (the scan of a 1M-row export takes
# 2.8 ms/MB so, against 3.9 ms/MB in 16 MB chunks)
CHUNK_BYTES = 1 << 20
# the UTF-8 check decodes 64 kB at a time: its text is then small enough to reuse memory
# (a whole chunk's text took twice as long)
DECODE_BYTES = 1 << 16
# below this much input, starting processes costs more than it saves
PROCESS_MIN_BYTES = 1 << 27
QUOTE, NEWLINE, CR, COMMA = b'"\n\r,'


class Scan(NamedTuple):
    """What one pass over a file found."""

    # data records by quote parity (None: not counted). Compared with DuckDB's only when
    # DuckDB rejected no record: an invalid UTF-8 byte makes it reject that record, so the
    # scan does not check the encoding.
    records: int | None
    content_hash: str  # new_digest() of its bytes: a file is read again only when it changes
    # every byte sequence is UTF-8 (DuckDB checks only the columns a query reads, so its
    # counting pass cannot tell)
    utf8: bool = False


def _line_states(
    data: np.ndarray, in_quotes: int, found: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(starts, ends, quote state before, quote state after) of each line of `data`: whole
    lines, each ending in a newline, read from quote state `in_quotes`. `found`: a scratch
    array of at least as many booleans.

    Per line, not per quote: numpy finds the newlines at C speed (few: a Raw JSON line is
    kilobytes), and a line's quotes are counted by parity alone (one XOR per line). The
    quote state before a line is the parity of the quotes before it; an escaped quote is
    two quotes, so it never flips the state (RFC 4180). The positions of every quote (12 %
    of an export's bytes) cost twice as much."""
    found = found[:len(data)]
    ends = np.flatnonzero(np.equal(data, NEWLINE, out=found))
    starts = np.concatenate(([0], ends[:-1] + 1))
    odd = np.bitwise_xor.reduceat(np.equal(data, QUOTE, out=found).view(np.uint8), starts)
    after = np.bitwise_xor.accumulate(odd) ^ in_quotes
    return starts, ends, after ^ odd, after


def _records(data: np.ndarray, in_quotes: int, found: np.ndarray) -> tuple[int, int]:
    """(records starting in `data`, the quote state after it): see _line_states."""
    starts, ends, before, after = _line_states(data, in_quotes, found)
    # blank lines are not records: nothing, or a lone CR, before the newline
    length = ends - starts
    blank = (length == 0) | ((length == 1) & (data[starts] == CR))
    return int(np.count_nonzero((before == 0) & ~blank)), int(after[-1])


def _wide(data: np.ndarray, in_quotes: int, max_fields: int, found: np.ndarray) -> tuple[bool, int]:
    """(whether a line of `data` holds max_fields field separators or more, the quote state
    after it): see _line_states. Only a line with that many commas at all (a JSON cell has
    many, inside its quotes) is looked at comma by comma."""
    starts, ends, before, after = _line_states(data, in_quotes, found)
    commas = np.flatnonzero(np.equal(data, COMMA, out=found[:len(data)]))
    many = np.searchsorted(commas, ends) - np.searchsorted(commas, starts) >= max_fields
    for line in np.flatnonzero(many):
        part = data[starts[line]:ends[line]]
        quotes = np.flatnonzero(part == QUOTE)
        quotes_before = np.searchsorted(quotes, np.flatnonzero(part == COMMA))
        if np.count_nonzero((quotes_before + before[line]) % 2 == 0) >= max_fields:
            return True, int(after[-1])
    return False, int(after[-1])


def new_digest() -> xxhash.xxh3_128:
    """The hash of a file's contents. It only tells whether a file whose modification time
    changed still holds the same bytes, against no adversary: xxh3_128 takes 0.07 ms per MB
    here, hashlib's fastest (sha256) 0.64 ms, a fifth of the whole scan."""
    return xxhash.xxh3_128()


def content_hash(path: str | Path) -> str:
    """new_digest() of a file's bytes."""
    digest = new_digest()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def utf8_continues(
    decoder: codecs.IncrementalDecoder, chunk: bytes | memoryview, final: bool = False
) -> bool:
    """Whether `chunk` goes on as UTF-8 from what `decoder` read before."""
    try:
        decoder.decode(chunk, final)
    except UnicodeDecodeError:
        return False
    return True


def each_line_chunk(
    path: str,
    consume: Callable[[np.ndarray, np.ndarray], bool],
    read: Callable[[memoryview], None] | None = None,
) -> None:
    """Hands a file's bytes to `consume(lines, scratch)` as arrays of whole lines, in order
    (a last line without a newline is given one), until it returns True; `read` sees every
    byte as read. `scratch`: a boolean array at least as long as `lines`.

    Into one buffer, reused: memory allocated afresh for each chunk is faulted in page by
    page, which cost more than the counting (copying a chunk's lines: 0.5 ms per MB)."""
    buffer = bytearray(2 * CHUNK_BYTES)
    found = np.empty(len(buffer), bool)
    held = 0  # the start of a line not yet ended, moved to the front of the buffer
    with open(path, "rb") as handle:
        while True:
            if len(buffer) - held < CHUNK_BYTES:  # a line longer than a chunk
                buffer.extend(bytes(len(buffer)))
                found = np.empty(len(buffer), bool)
            with memoryview(buffer) as view:
                got = handle.readinto(view[held:held + CHUNK_BYTES])
                if not got:
                    break
                if read is not None:
                    read(view[held:held + got])
                end = held + got
                # whole lines now; the rest waits for the next chunk
                cut = buffer.rfind(b"\n", held, end) + 1
                if not cut:
                    held = end
                    continue
                if consume(np.frombuffer(view, np.uint8, cut), found):
                    return
                view[:end - cut] = view[cut:end]
                held = end - cut
    if held:
        consume(np.frombuffer(bytes(buffer[:held]) + b"\n", np.uint8), found)


def scan_file(path: str) -> Scan:
    """Hash, record count and UTF-8 check of one file, in one read."""
    digest = new_digest()
    decoder, utf8 = codecs.getincrementaldecoder("utf-8")(), True
    records, in_quotes = 0, 0

    def read(chunk: memoryview) -> None:
        nonlocal utf8
        digest.update(chunk)
        utf8 = utf8 and all(utf8_continues(decoder, chunk[start:start + DECODE_BYTES])
                            for start in range(0, len(chunk), DECODE_BYTES))

    def count(lines: np.ndarray, found: np.ndarray) -> bool:
        nonlocal records, in_quotes
        counted, in_quotes = _records(lines, in_quotes, found)
        records += counted
        return False

    each_line_chunk(path, count, read)
    utf8 = utf8 and utf8_continues(decoder, b"", final=True)
    return Scan(max(records - 1, 0), digest.hexdigest(), utf8)  # less the header


def has_wide_line(path: str, max_fields: int) -> bool:
    """Whether a line of the file holds max_fields field separators or more: a record
    DuckDB would take minutes to store as a reject (loader.bounds). Asked only of a file the
    loader lands: every record of a file read in place parsed with its header's fields."""
    in_quotes, wide = 0, False

    def look(lines: np.ndarray, found: np.ndarray) -> bool:
        nonlocal in_quotes, wide
        wide, in_quotes = _wide(lines, in_quotes, max_fields, found)
        return wide

    each_line_chunk(path, look)
    return wide


class FileScanner:
    """Scans `paths` in the background: `futures[path]` is the scan of one.

    Processes where they pay off (fork: no re-import of dbt in the workers), else a thread.
    """

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self.pool: Executor | None = None

    def __enter__(self) -> FileScanner:
        total = sum(os.path.getsize(path) for path in self.paths)
        workers = os.cpu_count() or 1
        if (total >= PROCESS_MIN_BYTES and workers > 1
                and "fork" in multiprocessing.get_all_start_methods()):
            self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
        else:
            self.pool = ThreadPoolExecutor(1)
        self.futures = {path: self.pool.submit(scan_file, path)
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
