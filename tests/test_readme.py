"""The README's SQL examples run against a built warehouse, and its commands are the CI's."""

from __future__ import annotations

import re

from support.warehouse import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def sql_blocks(history: bool = False) -> list[str]:
    """The README's SQL examples; `history`: those about run history (they need runs of one
    test set, which tests/test_run_history.py builds), else the others."""
    blocks = re.findall(r"```sql\n(.*?)```", README, flags=re.DOTALL)
    return [b for b in blocks if b.startswith("-- history:") == history]


def test_readme_has_sql_examples():
    assert len(sql_blocks()) >= 4


def test_every_readme_sql_example_runs_and_returns_rows(con):
    for sql in sql_blocks():
        assert con.sql(sql).fetchall(), sql


def test_ci_runs_the_readme_test_command():
    test_command = re.search(r"# 2\. run every test.*?\n(.+)\n", README).group(1)
    assert test_command in (REPO / ".ci" / "run").read_text()
