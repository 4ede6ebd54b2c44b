"""A rule edit re-scores, always: a macro body, a seed row or a var changed in the project is
picked up by the next plain `dbt build`, and undoing it gives back the first scores."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import yaml
from support.warehouse import REPO, SAMPLES, WITHOUT_DATA_TESTS, copy_inputs, dbt_env, run_dbt
from test_adding_an_agent import project_copy

Scores = dict[int, tuple]


def scores(db: Path) -> Scores:
    with duckdb.connect(str(db), read_only=True) as con:
        return {r[0]: r[1:] for r in con.execute(
            "select record_no, heuristic_score, pass_ratio, speed_points from item_scores "
            "where agent = 'plan_agent'").fetchall()}


def edited(path: Path, old: str, new: str):
    """Replace `old` (present once) by `new` in `path`; the returned callable undoes it."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name}: {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return lambda: path.write_text(text, encoding="utf-8")


def test_a_macro_a_seed_row_and_a_var_edit_each_rescore_and_undoing_them_restores(tmp_path):
    root = project_copy(tmp_path / "project")
    inputs = copy_inputs([SAMPLES / "plan_agent_sample.csv"], tmp_path / "input")
    env = dbt_env(inputs, tmp_path / "w.duckdb", tmp_path)

    def build() -> Scores:
        # the scores are the subject, not the data tests
        proc = run_dbt(["build", *WITHOUT_DATA_TESTS], env, cwd=root)
        assert proc.returncode == 0, proc.stdout[-4000:]
        return scores(tmp_path / "w.duckdb")

    first = build()
    assert any(s[0] == 5 for s in first.values()) and any(s[2] for s in first.values())

    # a full pass scores 4 instead of 5 (macros/pass_ratio_points.sql)
    undo = edited(root / "macros" / "pass_ratio_points.sql",
                  "when {{ ratio }} is null then null",
                  "when {{ ratio }} is null then null when {{ ratio }} >= 1.0 then 4")
    after = build()
    assert after == {n: (4 if s[0] == 5 else s[0], *s[1:]) for n, s in first.items()}
    undo()

    # formType read from a key no reply has (seeds/check_paths.csv): pass ratios fall
    undo = edited(root / "seeds" / "check_paths.csv", "formType,ui_item,$.formType,",
                  "formType,ui_item,$.noSuchKey,")
    after = build()
    fell = [n for n, s in first.items() if s[1] is not None and after[n][1] < s[1]]
    assert fell and all(after[n][1] <= s[1] for n, s in first.items() if s[1] is not None)
    assert all(after[n] == s for n, s in first.items() if n not in fell)
    undo()

    # every reply slower than the single rubric's bands (vars.speed_rubrics): speed 0
    undo = edited(root / "dbt_project.yml", "single: [5, 8, 10, 15, 20]",
                  "single: [0.001, 0.002, 0.003, 0.004, 0.005]")
    after = build()
    assert after == {n: (*s[:2], None if s[2] is None else 0) for n, s in first.items()}
    undo()

    assert build() == first


def test_every_var_but_the_file_locations_and_the_evaluators_is_in_the_rules_digest():
    listed = yaml.safe_load((REPO / "dbt_project.yml").read_text(encoding="utf-8"))["vars"]
    macro = (REPO / "macros" / "rules_digest.sql").read_text(encoding="utf-8")
    hashed = re.findall(r"'(\w+)'", macro[macro.index("macro rule_vars"):])
    where = {"input_dir", "samples_dir", "landing_dir", "dbt_project_evaluator",
             # how staging reads, not what: test_direct_reads finds every row the same
             "direct_read_buffer_bytes", "direct_read_groups"}
    assert sorted(hashed) == sorted(set(listed) - where)
