"""One pass of Python over an export's bytes, independent of DuckDB's CSV reader: its
content hash, its data records, whether a line is too wide to hand to DuckDB and whether its
line ends are odd (then the loader lands it; else staging reads it in place:
loader.land.direct_read).

Every file's record count is compared with DuckDB's (SCORING §0: nothing is dropped
silently): by the loader for a file it lands, by stg_exports__rows for one read in place.
This pass is the loader's costliest work, so it runs in other processes.
"""

from __future__ import annotations

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
# below this much input, starting processes costs more than it saves
PROCESS_MIN_BYTES = 1 << 27
QUOTE, NEWLINE, CR, COMMA = b'"\n\r,'
# _commas_per_block: 255 words of 8 bytes
BLOCK_BYTES = 255 * 8


class Scan(NamedTuple):
    """What one pass over a file found."""

    # data records by quote parity (None: not counted). Compared with DuckDB's only when
    # DuckDB rejected no record: an invalid UTF-8 byte makes it reject that record, so the
    # scan does not check the encoding (DuckDB does, in the columns it reads).
    records: int | None
    content_hash: str  # new_digest() of its bytes: a file is read again only when it changes
    # a line of max_fields field separators or more (_wide)
    wide: bool = False
    # records ending in CRLF and in LF, or a CR not before an LF: DuckDB reads the one wrong
    # and fails its read on the other, even a tolerant one
    odd_newlines: bool = False


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


def _any_wide(data: np.ndarray, starts: np.ndarray, ends: np.ndarray, before: np.ndarray,
              max_fields: int, found: np.ndarray) -> bool:
    """Whether a line of `data` (its _line_states) holds max_fields field separators or
    more. Only a line that may have that many commas at all (a JSON cell has many, inside its
    quotes) is looked at comma by comma: one whose blocks (_commas_per_block) hold that many."""
    per_block = np.concatenate(([0], np.cumsum(
        _commas_per_block(np.equal(data, COMMA, out=found[:len(data)])))))
    # at most the commas of every block a line touches
    bound = per_block[ends // BLOCK_BYTES + 1] - per_block[starts // BLOCK_BYTES]
    for line in np.flatnonzero(bound >= max_fields):
        part = data[starts[line]:ends[line]]
        quotes = np.flatnonzero(part == QUOTE)
        quotes_before = np.searchsorted(quotes, np.flatnonzero(part == COMMA))
        if np.count_nonzero((quotes_before + before[line]) % 2 == 0) >= max_fields:
            return True
    return False


def _commas_per_block(commas: np.ndarray) -> np.ndarray:
    """How many of `commas` (one boolean per byte) are true in each block of BLOCK_BYTES, the
    last block the rest. Summed eight bytes at a time, as 64-bit words: each byte of a sum
    of at most 255 words of 0/1 bytes stays below 256, so no count spills into the next.
    A quarter of the cost of listing every comma's position, which a JSON cell has
    thousands of."""
    whole = len(commas) // BLOCK_BYTES * BLOCK_BYTES
    words = commas[:whole].view(np.uint64).reshape(-1, BLOCK_BYTES // 8).sum(axis=1,
                                                                             dtype=np.uint64)
    counts = words.view(np.uint8).reshape(-1, 8).sum(axis=1, dtype=np.int64)
    return np.append(counts, np.count_nonzero(commas[whole:]))


def _wide(data: np.ndarray, in_quotes: int, max_fields: int, found: np.ndarray) -> tuple[bool, int]:
    """(whether a line of `data` holds max_fields field separators or more, the quote state
    after it): see _line_states and _any_wide."""
    starts, ends, before, after = _line_states(data, in_quotes, found)
    return _any_wide(data, starts, ends, before, max_fields, found), int(after[-1])


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


def scan_file(path: str, max_fields: int) -> Scan:
    """Hash, record count, wide lines and line endings of one file, in one read."""
    digest = new_digest()
    records, in_quotes, wide, crlf, lf, lone_cr = 0, 0, False, False, False, False

    def scan(lines: np.ndarray, found: np.ndarray) -> bool:
        nonlocal records, in_quotes, wide, crlf, lf, lone_cr
        starts, ends, before, after = _line_states(lines, in_quotes, found)
        length = ends - starts
        blank = (length == 0) | ((length == 1) & (lines[starts] == CR))
        records += int(np.count_nonzero((before == 0) & ~blank))
        # a record ends where a line ends outside quotes
        ending = after == 0
        cr = lines[np.maximum(ends - 1, 0)] == CR
        cr &= length > 0
        crlf = crlf or bool(np.any(ending & cr))
        lf = lf or bool(np.any(ending & ~cr))
        lone_cr = lone_cr or np.count_nonzero(
            np.equal(lines, CR, out=found[:len(lines)])) != np.count_nonzero(cr)
        wide = wide or _any_wide(lines, starts, ends, before, max_fields, found)
        in_quotes = int(after[-1])
        return False

    each_line_chunk(path, scan, digest.update)
    # less the header
    return Scan(max(records - 1, 0), digest.hexdigest(), wide, (crlf and lf) or lone_cr)


def has_wide_line(path: str, max_fields: int) -> bool:
    """Whether a line of the file holds max_fields field separators or more: a record
    DuckDB would take minutes to store as a reject (loader.bounds). Asked of a copy the
    loader reads (scan_file tells it of the file itself)."""
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
