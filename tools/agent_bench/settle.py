"""`scripts/bench settle`: what staging's settle costs on one big export that DuckDB cannot
read cleanly. The same generated export is built twice, alone, with `dbt build --select
+stg_exports__rows` (no tests): as written, then with one broken record in its middle (and, with
--invalid-byte, a record holding a byte that is not UTF-8). The difference in
stg_exports__rows' own time is the settle: the count and location of the file's records in
SQL (macro locate_read_rejects), the renumbering and the rejected rows."""

from __future__ import annotations

import csv
import io
import random
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

from agent_bench.generate import Faults, load_template, write_export
from agent_bench.measure import read_run_results
from agent_bench.runner import Runner, Settings

BROKEN = 'broken-record,1,Q-broken,a "stray" quote,,,1/1\r\n'
NOT_UTF8 = b"broken-byte,1,Q-byte,a \xff byte,,,1/1\r\n"
MODEL = "stg_exports__rows"


def broken_copy(source: Path, target: Path, invalid_byte: bool) -> None:
    """`source` with the broken record(s) after its middle record."""
    csv.field_size_limit(1 << 30)
    with source.open(encoding="utf-8-sig", newline="") as handle:
        records = list(csv.reader(handle))
    middle = (len(records) + 1) // 2

    def written(part: list[list[str]]) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\r\n").writerows(part)
        return out.getvalue()

    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        out.write(written(records[:middle]).encode("utf-8-sig"))
        out.write(BROKEN.encode())
        if invalid_byte:
            out.write(NOT_UTF8)
        out.write(written(records[middle:]).encode())


def model_seconds(runner: Runner) -> float:
    timings = read_run_results(runner.target / "run_results.json")
    if timings is None:
        raise RuntimeError(f"no run_results.json in {runner.target}")
    return next(seconds for _, name, seconds in timings.by_node if name == MODEL)


def bench_settle(base: Path, settings: Settings, rows: int, invalid_byte: bool,
                 echo: Any) -> dict[str, float]:
    template = load_template(settings.template)
    export = base / "generated" / f"{template.agent}_settle.csv"
    generated = write_export(export, template, rows, random.Random(settings.seed), Faults(),
                             datetime(2026, 1, 1))
    echo(f"one export of {generated.rows:,} rows, {generated.size_bytes:,} bytes")
    seconds = {}
    for case in ("clean", "broken"):
        runner = Runner(base / case, settings)
        shutil.rmtree(runner.input_dir, ignore_errors=True)
        if case == "clean":
            runner.input_dir.mkdir(parents=True)
            shutil.copy(export, runner.input_dir / export.name)
        else:
            broken_copy(export, runner.input_dir / export.name, invalid_byte)
        runner.clean_warehouse()
        runner.run(f"dbt-build-{case}", runner.dbt("build", "--select", f"+{MODEL}",
                                                  "--exclude", "resource_type:test"))
        seconds[case] = model_seconds(runner)
        echo(f"{MODEL} ({case}): {seconds[case]:.2f} s")
    echo(f"the settle: {seconds['broken'] - seconds['clean']:+.2f} s")
    return seconds
