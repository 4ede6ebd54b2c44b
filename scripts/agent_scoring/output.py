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
