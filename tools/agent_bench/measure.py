"""Wall time and peak RSS of one benchmark step, run as its own child process.

Peak RSS is the step's own ru_maxrss as reported by wait4 on it. Two traps avoided here:
getrusage(RUSAGE_CHILDREN) is the maximum over every child reaped so far (a big early step
would mask all later ones), and on Linux a child's ru_maxrss includes the RSS of the process
it was forked from, because maxrss survives exec: spawned straight from this (DuckDB-loaded)
process, every step would report at least our own size. So each step is started by a small
wrapper, GNU time when present, else `python -S` (about 9 MB, the error it can add).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# argv: OUT_FILE CMD...; writes "<maxrss KiB> <exit code>" of CMD to OUT_FILE
_PY_WRAPPER = (
    "import os,sys\n"
    "pid=os.posix_spawnp(sys.argv[2],sys.argv[2:],os.environ)\n"
    "_,st,ru=os.wait4(pid,0)\n"
    "code=os.waitstatus_to_exitcode(st)\n"
    "open(sys.argv[1],'w').write(f'{ru.ru_maxrss} {code}')\n"
    "sys.exit(code if code>=0 else 1)\n"
)


def _gnu_time() -> str | None:
    path = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    if path is None:
        return None
    probe = subprocess.run([path, "-f", "%M", "true"], capture_output=True, text=True)
    return path if probe.returncode == 0 and probe.stderr.strip().isdigit() else None


GNU_TIME = _gnu_time()


@dataclass
class Measured:
    wall_s: float
    peak_rss_mb: float
    returncode: int
    log_path: Path

    def tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])


def run_measured(
    cmd: list[str], *, log_path: Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Measured:
    """Run `cmd` with output to `log_path`; its wall time and its own peak RSS."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("r", suffix=".rss", delete=False) as report:
        report_path = report.name
    if GNU_TIME:
        wrapped = [GNU_TIME, "-f", "%M %x", "-o", report_path, *cmd]
    else:
        wrapped = [sys.executable, "-S", "-c", _PY_WRAPPER, report_path, *cmd]
    try:
        with log_path.open("wb") as log:
            started = time.perf_counter()
            done = subprocess.run(wrapped, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd)
            wall = time.perf_counter() - started
        fields = Path(report_path).read_text().split()
    finally:
        os.unlink(report_path)
    # GNU time writes "Command exited with non-zero status N" before the figures
    maxrss_kib, code = (int(fields[-2]), int(fields[-1])) if len(fields) >= 2 else (0, -1)
    return Measured(wall, maxrss_kib / 1024, code if done.returncode else 0, log_path)


@dataclass
class DbtTimings:
    """dbt's own account of a build, from target/run_results.json."""

    elapsed_s: float
    by_node: list[tuple[str, str, float]] = field(default_factory=list)  # type, name, seconds
    by_type: dict[str, float] = field(default_factory=dict)  # model/test/unit_test/seed -> s

    def top_models(self, count: int) -> list[tuple[str, float]]:
        models = [(name, s) for kind, name, s in self.by_node if kind == "model"]
        return sorted(models, key=lambda pair: -pair[1])[:count]

    def as_dict(self) -> dict[str, Any]:
        return {
            "elapsed_s": self.elapsed_s,
            "by_type": self.by_type,
            "nodes": [{"type": k, "name": n, "seconds": s} for k, n, s in self.by_node],
        }


def read_run_results(path: Path) -> DbtTimings | None:
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    nodes = []
    by_type: dict[str, float] = defaultdict(float)
    for result in data.get("results", []):
        kind, _, rest = result["unique_id"].partition(".")
        name = rest.split(".", 1)[-1]
        nodes.append((kind, name, float(result.get("execution_time") or 0.0)))
        by_type[kind] += nodes[-1][2]
    return DbtTimings(float(data.get("elapsed_time") or 0.0), nodes, dict(by_type))
