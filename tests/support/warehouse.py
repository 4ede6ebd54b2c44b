"""Build the dbt project into a throw-away DuckDB file, as `dbt build` would (dbtRunner)."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import os
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
FIXTURES = REPO / "tests" / "fixtures"
REAL_DATA = REPO.parent / "shared" / "real-data"


@dataclass(frozen=True)
class Warehouse:
    db: Path
    input_dir: Path
    work: Path
    log: str

    def connect(self) -> duckdb.DuckDBPyConnection:
        return duckdb.connect(str(self.db), read_only=True)

    def env(self) -> dict[str, str]:
        return dbt_env(self.input_dir, self.db, self.work)


def dbt_env(input_dir: Path, db: Path, work: Path, artifacts: bool = False) -> dict[str, str]:
    """dbt's environment for a build of `input_dir` into `db`. `artifacts`: dbt writes
    target/manifest.json and run_results.json, for a test that reads them (else not: dbt
    writes the manifest twice per call; warm sample builds took 8.8 s without, 9.9 s with)."""
    return {
        # no debug log file: writing it is 7 % of a test build, and a failing test shows
        # dbt's output (DBT_LOG_LEVEL_FILE=debug keeps it)
        "DBT_LOG_LEVEL_FILE": "none",
        **({} if artifacts else {"DBT_WRITE_JSON": "false"}),
        **os.environ,
        "AGENT_SCORING_INPUT_DIR": str(input_dir),
        "AGENT_SCORING_DB": str(db),
        "DBT_TARGET_PATH": str(work / "target"),
        "DBT_LOG_PATH": str(work / "logs"),
    }


# `dbt build` without its data tests (a third less time per sample build): for builds whose
# subject is not the data tests, because the test compares their warehouse with a clean build
# of the same inputs, or reads figures that other builds test. The session's warehouse, the
# bad-input corpus and every build of inputs of their own still run them. Excluding tests
# leaves the build whole (macros/build_log.sql), as a plain `dbt build` is.
WITHOUT_DATA_TESTS = ("--exclude", "resource_type:test")


def copy_inputs(files: list[Path], input_dir: Path) -> Path:
    input_dir.mkdir(parents=True, exist_ok=True)
    for f in files:
        shutil.copy(f, input_dir / f.name)
    return input_dir


def run_dbt(
    args: list[str], env: dict[str, str], cwd: Path = REPO
) -> subprocess.CompletedProcess:
    command, env, run_dir = dbt_invocation(args, env, cwd)
    if "--target" in args:  # Spark: its session and JVM stay out of the test process
        proc = subprocess.run(command, cwd=run_dir, env=env, capture_output=True, text=True,
                              timeout=1800)
    else:
        proc = dbt_in_process(command[1:], env, run_dir)
    keep_parse(env, args, cwd)
    return proc


def dbt_in_process(
    args: list[str], env: dict[str, str], run_dir: Path
) -> subprocess.CompletedProcess:
    """Run dbt in this process (dbtRunner), as `dbt` would run in `run_dir` with `env`.

    A dbt process spends 3 to 4 s here importing itself, and the suite calls dbt some 60
    times. Its exit code is dbt's: 0 done, 1 a node failed, 2 dbt itself failed. dbt-duckdb
    keeps the warehouse open between invocations; it is closed after each, so the tests
    (and the next build) can open it."""
    from dbt.adapters.duckdb.connections import DuckDBConnectionManager
    from dbt.cli.main import dbtRunner

    saved_cwd = os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    os.chdir(run_dir)
    try:
        with mock.patch.dict(os.environ, env, clear=True), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            result = dbtRunner().invoke(args)
    finally:
        if DuckDBConnectionManager._ENV is not None:
            DuckDBConnectionManager._ENV.close()
        DuckDBConnectionManager.close_all_connections()
        gc.collect()  # a cursor left in a frame keeps the database open
        os.chdir(saved_cwd)
    if result.exception is not None:
        err.write("".join(traceback.format_exception(result.exception)))
    code = 0 if result.success else 2 if result.exception is not None else 1
    return subprocess.CompletedProcess(["dbt", *args], code, out.getvalue(), err.getvalue())


# What the test builds of one run share (conftest: the session's temp folder): dbt's parse,
# clean builds
SHARED: Path | None = None


def dbt_invocation(
    args: list[str], env: dict[str, str], project: Path = REPO
) -> tuple[list[str], dict[str, str], Path]:
    """(command, environment, working folder) of one dbt call on `project`.

    dbt parses the project afresh (~8 s here) whenever its profile differs from the last
    parse, and the warehouse path is part of the profile. So dbt runs in the warehouse's
    folder and the profile names the warehouse by its file name alone: every test build has
    the same profile and starts from the one parse in SHARED (dbt re-reads only the
    files that changed, or that use an env var whose value did). `samples` links to the
    project's: `vars.samples_dir` is relative to where dbt runs, the project folder for a
    user.
    """
    db = Path(env["AGENT_SCORING_DB"])
    run_dir = db.parent
    run_dir.mkdir(parents=True, exist_ok=True)
    samples = run_dir / "samples"
    if not samples.exists() and not samples.is_symlink():
        samples.symlink_to(project / "samples")
    env = {**env, "AGENT_SCORING_DB": db.name, "DBT_PROJECT_DIR": str(project),
           "DBT_PROFILES_DIR": str(project)}
    cached = parse_cache_file(env, args)
    target = Path(env.get("DBT_TARGET_PATH", project / "target"))
    # a copy of the project (tests that edit it) goes on from its own last parse, and starts
    # from the project's: dbt then re-reads the files the copy changed, not all of them (a
    # seed it did not change is read from the project's folder then: the same file)
    own = project != REPO and (target / PARSE_FILE).exists()
    if cached is not None and cached.exists() and not own:  # else the last call's
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(cached, target / PARSE_FILE)
    dbt = Path(sys.executable).with_name("dbt")
    return [str(dbt), *without_unit_tests(args), "--no-use-colors"], env, run_dir


def without_unit_tests(args: list[str]) -> list[str]:
    """A `dbt build` given its own --select or --exclude leaves the default selector, which
    skips the unit tests, and runs them too (half of a sample build's time):
    tests/test_dbt_unit_tests.py runs them once."""
    selects = {"--select", "-s", "--exclude"} & set(args)
    if args[:1] != ["build"] or "--selector" in args or not selects:
        return args
    if "--exclude" in args:
        at = args.index("--exclude") + 1
        return [*args[:at], "test_type:unit", *args[at:]]
    return [*args, "--exclude", "test_type:unit"]


PARSE_FILE = "partial_parse.msgpack"


def parse_cache_file(env: dict[str, str], args: list[str]) -> Path | None:
    """The project's shared parse for this warehouse file name and --vars (dbt parses again
    when vars differ). dbt does not check where the project lies: a copy can start from it."""
    if SHARED is None:
        return None
    vars_given = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--vars"]
    key = repr((env["AGENT_SCORING_DB"], vars_given))
    return SHARED / "dbt-parse" / f"{hashlib.md5(key.encode()).hexdigest()}.msgpack"


def keep_parse(env: dict[str, str], args: list[str], project: Path = REPO) -> None:
    """Share the parse of the call that just ran (`env` as dbt_invocation gave it), if none
    is shared yet for its key. Only the project's: a copy's may differ, and its seeds are
    read from the copy's folder (a seed's parse keeps its path), which the test deletes."""
    if project != REPO:
        return
    cached = parse_cache_file(env, args)
    parsed = Path(env.get("DBT_TARGET_PATH", project / "target")) / PARSE_FILE
    if cached is not None and not cached.exists() and parsed.exists():
        share(parsed, cached)


def share(source: Path, shared: Path) -> None:
    """Copy `source` to `shared` atomically: the other worker may share the same file."""
    shared.parent.mkdir(parents=True, exist_ok=True)
    partial = shared.with_suffix(f".{os.getpid()}")
    shutil.copy(source, partial)
    os.replace(partial, shared)


def build(
    input_dir: Path, work: Path, select: list[str] | None = None, extra: list[str] = (),
    artifacts: bool = False,
) -> Warehouse:
    """`dbt build` (optionally `--select …` and other arguments) into work/warehouse.duckdb;
    fail on error. `artifacts`: as dbt_env's."""
    db = work / "warehouse.duckdb"
    args = ["build", *(["--select", *select] if select else []), *extra]
    proc = run_dbt(args, dbt_env(input_dir, db, work, artifacts))
    if proc.returncode != 0:
        pytest.fail(f"dbt build failed:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}")
    return Warehouse(db=db, input_dir=input_dir, work=work, log=proc.stdout)


def one(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> dict:
    """The single row a query returns, as a dict."""
    found = all_rows(con, sql, params)
    assert len(found) == 1, f"expected one row, got {len(found)}: {sql}"
    return found[0]


def all_rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]
