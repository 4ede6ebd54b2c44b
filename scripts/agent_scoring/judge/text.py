"""Text that crosses a boundary (an input file, a judge reply) made safe to encode.

A lone surrogate (JSON allows "\\ud83d" without its pair) cannot be written as UTF-8, so one
such character in an answer or in a reply used to crash the run; NUL cannot be stored in the
cache. Both become U+FFFD, which keeps the position visible to a reader.
"""

from __future__ import annotations

import re
from typing import Any

_UNENCODABLE = re.compile(r"[\ud800-\udfff\x00]")


def clean(text: str) -> str:
    return _UNENCODABLE.sub("\ufffd", text)


def clean_all(value: Any) -> Any:
    """`clean` on every string of a JSON value (keys too)."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list):
        return [clean_all(v) for v in value]
    if isinstance(value, dict):
        return {clean(str(k)): clean_all(v) for k, v in value.items()}
    return value
