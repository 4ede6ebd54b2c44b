"""The dbt-duckdb plugin's own work in dbt's process (its refusals are in test_faults)."""

from __future__ import annotations

import gc

from agent_scoring.dbt_plugin import Plugin


def test_the_plugin_leaves_what_dbt_parsed_out_of_the_garbage_collectors_walks():
    gc.unfreeze()
    try:
        Plugin(name="agent_scoring", plugin_config={})
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
