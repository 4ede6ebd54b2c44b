"""Reports query once for all files: each file still gets its own rows, in the same order.
(The per-file top-N rankings are the reporting models' own: their dbt unit tests.)"""

from __future__ import annotations

from agent_scoring.reports import Reporter, common

FILES = ["a.csv", "b.csv"]


def test_a_reporter_without_batch_context_builds_each_file_alone():
    seen = []
    reporter = Reporter(
        agent="x", template="t", required_tables=(), sources=lambda con: [],
        context=lambda con, f: seen.append(f) or {"source_file": f}, summary=str,
    )
    assert reporter.contexts(None, FILES) == [{"source_file": f} for f in FILES]
    assert seen == FILES
    assert reporter.contexts(None, []) == []


def test_each_file_gets_its_own_top_n_from_one_query(con):
    """Batched and one file at a time give the same rows (agent warehouse)."""
    for agent, name in (("resume_agent", "failure_patterns"),
                        ("plan_agent", "most_failed_checks")):
        files = common.sources(con, agent)
        batched = common.section(con, name, agent, files)
        assert any(batched[f] for f in files)
        for f in files:
            assert len(batched[f]) <= 10
            assert common.section(con, name, agent, [f])[f] == batched[f]
