"""score-report selects and renders: the SQL its report code sends is plain selects of the
models (every figure is a dbt model), which any engine runs. No aggregation, join or window
in Python-sent SQL."""

from __future__ import annotations

import re

import pytest
from support.warehouse import REPO

PACKAGE = REPO / "scripts" / "agent_scoring"
REPORT_CODE = [*sorted((PACKAGE / "reports").glob("*.py")),
               *(PACKAGE / f"{name}.py" for name in ("history", "gate"))]
# SQL a report must not send: the work of a model
BANNED = re.compile(r"group by|(?<![.\w])join\b|qualify|count_if|string_agg|over \(",
                    re.IGNORECASE)


@pytest.mark.parametrize("path", REPORT_CODE, ids=lambda p: p.name)
def test_report_code_sends_only_plain_selects(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(lines, 1)
             if BANNED.search(line)]
    assert found == []


def test_the_check_finds_what_it_bans():
    assert BANNED.search("from a left join b on a.x = b.x")
    assert BANNED.search("count(*) over (partition by f)")
    assert not BANNED.search('", ".join(names)')
