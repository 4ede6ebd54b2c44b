"""The `score-report` console script: Ctrl-C while Python is still loading the tool ends it
quietly (exit status 130) instead of with a traceback; commands that run long (the judge) set
their own handling once loaded."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    signal.signal(signal.SIGINT, lambda signum, frame: sys.exit(130))
    from agent_scoring.cli import main as cli

    cli()
