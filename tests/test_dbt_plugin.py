"""The dbt-duckdb plugin's own work in dbt's process (its refusals are in test_faults)."""

from __future__ import annotations

import gc
import weakref

from agent_scoring.dbt_plugin import Plugin


class Node:
    """An object that can refer to itself: garbage only the cycle collector frees."""


def test_the_plugin_leaves_what_dbt_parsed_out_of_the_garbage_collectors_walks():
    gc.unfreeze()
    try:
        Plugin(name="agent_scoring", plugin_config={})
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_garbage_of_an_earlier_build_in_the_process_is_not_frozen_for_good():
    gc.unfreeze()
    try:
        Plugin(name="agent_scoring", plugin_config={})  # an earlier build
        cycle = Node()
        cycle.self = cycle
        gone = weakref.ref(cycle)
        del cycle
        gc.freeze()  # frozen along with that build's objects
        Plugin(name="agent_scoring", plugin_config={})  # the next build
        assert gone() is None
    finally:
        gc.unfreeze()
