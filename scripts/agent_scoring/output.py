"""Writing reports so that a failed write leaves the old report or none, never half of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(target: Path, text: str) -> None:
    """Write through a temporary file in the target's folder, then rename it into place.
    Raises OSError (a full disk, a read-only folder) with nothing left behind."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_error(target: Path, exc: OSError) -> str:
    """One line naming the report that was not written and why."""
    return f"{target}: not written ({exc.strerror or exc})"


# the reports the last runs wrote into a folder: only those are ever removed from it
WRITTEN_LIST = ".score-report-written"


def remove_stale_reports(out_dir: Path, written: list[str], whole: bool) -> list[Path]:
    """Remember the reports just written; after a whole run (every agent and file), remove
    those an earlier run wrote whose export is no longer in the warehouse. A file this
    command did not write is never touched. Returns the reports removed."""
    listing = out_dir / WRITTEN_LIST
    try:
        earlier = set(listing.read_text(encoding="utf-8").split("\n")) - {""}
    except OSError:
        earlier = set()
    removed: list[Path] = []
    if not earlier and not written:
        return removed
    if whole:
        for name in sorted(earlier - set(written)):
            path = out_dir / name
            if path.is_file() and path.parent == out_dir:
                path.unlink()
                removed.append(path)
        earlier = set()
    with contextlib.suppress(OSError):
        write_atomically(listing, "\n".join(sorted(earlier | set(written))) + "\n")
    return removed
