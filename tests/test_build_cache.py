"""A build with nothing new keeps every model, seed and test outcome (macros/materializations/
unchanged.sql), and a build after a change gives exactly what a clean build gives."""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import duckdb
import pytest
from support.warehouse import SAMPLES, dbt_env, run_dbt

INPUTS = [
    "plan_agent_sample.csv",
    "resume_agent_sample.csv",
    "url_agent_sample.csv",
    "qa_dataset_sample.json",
    "evaluation_report_sample_20251210_100000.json",
    "evaluation_report_sample_20251211_100000.json",
]
# when a row was scored or compared, and where a transcoded copy lives, differ by build
VOLATILE = {"scored_at", "compared_at", "read_path"}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    work = tmp_path_factory.mktemp("build_cache")
    inputs = work / "input"
    inputs.mkdir()
    for name in INPUTS:
        shutil.copy(SAMPLES / name, inputs / name)
    return work, inputs


def build(work, inputs, *extra: str, db: str = "w.duckdb", expect: int = 0) -> str:
    env = dbt_env(inputs, work / db, work / db.replace(".duckdb", ""))
    proc = run_dbt(["build", *extra], env)
    assert proc.returncode == expect, proc.stdout[-5000:]
    return proc.stdout


def kept(log: str) -> tuple[int, int]:
    """(models and seeds kept, test outcomes replayed) as the build's log says."""
    found = re.search(r"(\d+) models and seeds kept, (\d+) test outcomes replayed", log)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def node_counts(work) -> tuple[int, int]:
    manifest = json.loads((work / "w" / "target" / "manifest.json").read_text(encoding="utf-8"))
    nodes = manifest["nodes"].values()
    relations = sum(n["resource_type"] in ("model", "seed") for n in nodes)
    tests = sum(n["resource_type"] == "test" for n in nodes)
    return relations, tests


def assert_same_warehouse(work, fresh: str) -> None:
    """Every table of schema main holds the same rows in both warehouses."""
    with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
        con.execute(f"attach '{work / fresh}' as fresh (read_only)")
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() where database_name = 'w' "
            "and schema_name = 'main' order by 1").fetchall()]
        assert len(tables) > 40
        for table in tables:
            columns = [r[0] for r in con.execute(f"describe main.{table}").fetchall()
                       if r[0] not in VOLATILE]
            listed = ", ".join(f'"{c}"' for c in columns)
            for a, b in (("w", "fresh"), ("fresh", "w")):
                extra = con.execute(
                    f"select count(*) from (select {listed} from {a}.main.{table} "
                    f"except all select {listed} from {b}.main.{table})").fetchone()[0]
                assert extra == 0, f"{table}: {extra} row(s) only in {a}"


def test_1_a_clean_build_builds_everything(project):
    work, inputs = project
    log = build(work, inputs)
    assert kept(log) == (0, 0)


def test_2_a_build_with_nothing_new_keeps_everything(project):
    work, inputs = project
    time.sleep(2)  # the inputs were copied just before the first build: let them settle
    build(work, inputs)
    log = build(work, inputs)
    relations, tests = node_counts(work)
    assert kept(log) == (relations, tests)
    assert "OK created python table model main.stg_exports__files" in log
    assert re.search(r"stg_exports__files \.+ \[UNCHANGED", log)
    # the outcome of a test is replayed as it was: the two coverage warnings stay warnings
    assert re.search(r"PASS=\d+ WARN=2 ERROR=0", log)


def test_3_a_changed_export_rebuilds_what_reads_it_like_a_clean_build(project):
    work, inputs = project
    plan = inputs / "plan_agent_sample.csv"
    text = plan.read_text(encoding="utf-8-sig")
    changed = text.replace('""formType"": ""SELECT""', '""formType"": ""INPUT""', 2)
    assert changed != text
    plan.write_text(changed, encoding="utf-8-sig")
    log = build(work, inputs)
    relations, _ = node_counts(work)
    assert 0 < kept(log)[0] < relations
    assert not re.search(r"stg_exports__rows \.+ \[UNCHANGED", log)
    build(work, inputs, db="fresh.duckdb")
    assert_same_warehouse(work, "fresh.duckdb")


def test_4_a_changed_var_rebuilds_what_uses_it(project):
    work, inputs = project
    bands = "{max_response_time_sec: 30}"
    log = build(work, inputs, "--vars", bands)
    relations, _ = node_counts(work)
    assert 0 < kept(log)[0] < relations
    (work / "fresh.duckdb").unlink()
    build(work, inputs, "--vars", bands, db="fresh.duckdb")
    assert_same_warehouse(work, "fresh.duckdb")


def test_5_a_file_changed_in_the_second_of_the_last_build_is_read_again(project):
    work, inputs = project
    url = inputs / "url_agent_sample.csv"
    # written in the second the build runs (a future time stands in for it)
    second = int(time.time()) + 60
    os.utime(url, (second, second))
    build(work, inputs)
    # written again in that same second, with the same size: only the racy rule notices
    content = url.read_bytes()
    url.write_bytes(content.replace(b"https://", b"http://x", 1))
    os.utime(url, (second + 0.5, second + 0.5))
    log = build(work, inputs)
    assert not re.search(r"stg_exports__files \.+ \[UNCHANGED", log)
    with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
        read_again = con.execute(
            "select count(*) from url_agent__url_matches where button_urls::varchar like ?",
            ["%http://x%"]).fetchone()[0]
    assert read_again == 1


def test_6_broken_invariants_fail_every_build_until_fixed(project):
    work, inputs = project
    dataset = inputs / "qa_dataset_sample.json"
    original = dataset.read_text(encoding="utf-8")
    data = json.loads(original)
    data["questions"][0]["category"] = "in_domian"
    dataset.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for _ in range(2):  # the second build has nothing new and must still fail
        log = build(work, inputs, expect=2)
        assert "row invariants broken" in log
        assert "stg_rag__questions: " in log and "(category) is not in rag_categories" in log
    dataset.write_text(original, encoding="utf-8")
    log = build(work, inputs)
    assert "row invariants held" in log


def test_7_full_refresh_rebuilds_everything(project):
    work, inputs = project
    log = build(work, inputs, "--full-refresh")
    assert kept(log) == (0, 0)
