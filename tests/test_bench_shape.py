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
