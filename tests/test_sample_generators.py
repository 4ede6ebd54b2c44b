"""The generators of the bundled samples (tools/, not installed) write exactly what is committed:
a changed case in tools/sample_cases/ comes with its regenerated sample, and a change to the
generators changes no sample by accident. (The router agent's xlsx: tests/test_router_agent.py.)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import make_sample_data
import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


def test_the_generator_writes_the_bundled_samples_byte_for_byte(tmp_path):
    written = make_sample_data.write_samples(tmp_path)
    assert [(path.name, rows) for path, rows in written] == [
        ("plan_agent_sample.csv", 40), ("resume_agent_sample.csv", 24),
        ("url_agent_sample.csv", 32)]
    for path, _ in written:
        assert path.read_bytes() == (REPO / "samples" / path.name).read_bytes(), path.name


def test_the_published_report_fixture_is_written_byte_for_byte(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location(
        "make_resume_fixture", FIXTURES / "make_resume_fixture.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look it up there
    spec.loader.exec_module(module)
    for name in ("CSV_PATH", "JSON_PATH"):
        monkeypatch.setattr(module, name, tmp_path / getattr(module, name).name)
    module.main()
    for name in ("resume_agent_published.csv", "resume_agent_published_expected.json"):
        assert (tmp_path / name).read_bytes() == (FIXTURES / name).read_bytes(), name


def test_a_case_of_an_unknown_shape_is_refused():
    with pytest.raises(ValueError, match="unknown UI item kind 'slider'"):
        make_sample_data.build_ui({"slider": "만족도", "min": 1})
    with pytest.raises(TypeError, match="colour"):
        make_sample_data.build_ui({"select": "전형", "field": "nodeId", "multi": True,
                                   "options": [], "colour": "red"})
    with pytest.raises(TypeError, match="secs"):
        make_sample_data.build_reply({"message": "", "secs": 3.0})
