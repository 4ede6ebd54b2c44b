"""`scripts/bench shape`: the chain and the backward refs it reads from dbt's listing."""

from __future__ import annotations

from agent_bench.shape import backward_refs, longest_chain


def model(name: str, path: str, *parents: str) -> dict:
    return {"unique_id": f"model.agent_scoring.{name}", "resource_type": "model",
            "original_file_path": path,
            "depends_on": {"nodes": [f"model.agent_scoring.{p}" for p in parents]
                           + ["seed.agent_scoring.some_seed"]}}


NODES = [
    model("loads", "models/staging/loads.py"),
    model("stg_rows", "models/staging/stg_rows.sql", "loads"),
    model("int_items", "models/intermediate/int_items.sql", "stg_rows"),
    model("item_scores", "models/marts/item_scores.sql", "int_items"),
    model("int_figures", "models/intermediate/int_figures.sql", "int_items", "item_scores"),
    model("set_scores", "models/marts/set_scores.sql", "int_figures", "stg_rows"),
]


def test_the_longest_chain_ends_at_set_scores_and_takes_the_longest_parent():
    assert longest_chain(NODES) == ["loads", "stg_rows", "int_items", "item_scores",
                                    "int_figures", "set_scores"]


def test_a_model_below_the_marts_reading_a_mart_is_a_backward_ref():
    assert backward_refs(NODES) == [("int_figures", "item_scores")]


def test_the_settle_benchs_broken_copy_adds_its_records_in_the_middle(tmp_path):
    """`scripts/bench settle` builds the same export with a broken record (and a byte that is
    not UTF-8) between its records, not inside a quoted cell."""
    import csv

    from agent_bench.settle import BROKEN, NOT_UTF8, broken_copy

    source = tmp_path / "plan_agent_x.csv"
    rows = [["Item ID", "Raw JSON"]] + [[f"i-{n}", '{"a":\n"b"}'] for n in range(4)]
    with source.open("w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle, lineterminator="\r\n").writerows(rows)
    target = tmp_path / "broken" / source.name
    broken_copy(source, target, invalid_byte=True)
    data = target.read_bytes()
    assert data.startswith(source.read_bytes().split(b"i-2")[0])
    assert data.count(BROKEN.encode()) == 1 and data.count(NOT_UTF8) == 1
    with target.open(encoding="utf-8-sig", errors="replace", newline="") as handle:
        found = list(csv.reader(handle))
    assert [row[0] for row in found] == ["Item ID", "i-0", "i-1", "broken-record",
                                         "broken-byte", "i-2", "i-3"]
