"""The installed package is only the product: the wheel built from this checkout holds
`agent_scoring` (its code, templates, prompts and scaffold) and nothing made to develop it —
not the benchmark (tools/agent_bench) nor the sample generators (tools/)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "scripts" / "agent_scoring"
# what setuptools reads to build (pyproject: packages found in scripts/); tools/ goes along so
# that a configuration that packaged it would show
BUILD_INPUTS = ("pyproject.toml", "README.md", "setup.py", "setup.cfg", "MANIFEST.in", "scripts",
                "tools")
DEVELOPMENT_ONLY = ("bench", "agent_bench", "make_sample_data", "make_router_samples",
                    "sample_shapes", "sample_cases", "router_sample_cases")


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> list[str]:
    """Build the wheel offline, from a copy (a build writes build/ and egg-info beside it)."""
    source = tmp_path_factory.mktemp("checkout")
    for name in BUILD_INPUTS:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info", "build"))
        elif path.exists():
            shutil.copy(path, source / name)
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(out), "-q"],
        capture_output=True, text=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"},
    )
    assert done.returncode == 0, (
        "the wheel did not build offline with this venv's setuptools (the test extra brings "
        f"one that builds wheels: pip install -e '.[test]'):\n{done.stdout[-3000:]}"
        f"{done.stderr[-3000:]}")
    [wheel] = out.glob("agent_scoring-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def development_files(names: list[str]) -> list[str]:
    """Entries of a wheel that are not the product: outside agent_scoring and its dist-info,
    or a development tool's module or data anywhere."""
    found = []
    for name in names:
        top, *_ = name.split("/")
        parts = {Path(part).stem for part in name.split("/")}
        if not (top == "agent_scoring" or top.endswith(".dist-info")) or parts & set(
                DEVELOPMENT_ONLY):
            found.append(name)
    return found


def test_a_development_tool_in_the_wheel_would_be_found():
    assert development_files([
        "agent_scoring/cli.py", "agent_scoring/bench/cli.py", "agent_bench/runner.py",
        "make_sample_data.py", "agent_scoring-0.1.0.dist-info/RECORD",
    ]) == ["agent_scoring/bench/cli.py", "agent_bench/runner.py", "make_sample_data.py"]


def test_the_wheel_holds_no_benchmark_and_no_sample_generator(wheel_names):
    assert development_files(wheel_names) == []


def test_the_wheel_holds_all_of_the_product(wheel_names):
    """Every module of agent_scoring, and its Jinja templates, prompts and scaffold."""
    shipped = set(wheel_names)
    for pattern in ("**/*.py", "templates/*.j2", "prompts/*.j2", "scaffold/*.j2"):
        wanted = {f"agent_scoring/{path.relative_to(PACKAGE).as_posix()}"
                  for path in PACKAGE.glob(pattern)}
        assert wanted, pattern
        assert wanted <= shipped, sorted(wanted - shipped)
