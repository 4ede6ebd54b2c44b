"""dbt's own cost per node, with none of our SQL: a throw-away project of N views that each
select one constant, run by the same dbt, adapter and thread count as the warehouse.

The fixed-cost target compares a no-change build with `dbt run -s speed_bands`; the same
ratio for N trivial views (N = the build's node count) is what dbt alone costs for that many
models on this machine, before any of their SQL does work.
"""

from __future__ import annotations

from pathlib import Path

PROJECT = """\
name: dbt_floor
version: "1.0"
config-version: 2
profile: dbt_floor
flags:
  send_anonymous_usage_stats: false
models:
  dbt_floor:
    +materialized: view
"""

PROFILE = """\
dbt_floor:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: {db}
      threads: 2
"""


def write_floor_project(root: Path, nodes: int) -> Path:
    """A dbt project of `nodes` views `select <n> as n` (v_1 … v_<nodes>) in `root`."""
    models = root / "models"
    models.mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(PROJECT, encoding="utf-8")
    (root / "profiles.yml").write_text(PROFILE.format(db=root / "floor.duckdb"),
                                       encoding="utf-8")
    for n in range(1, nodes + 1):
        (models / f"v_{n}.sql").write_text(f"select {n} as n\n", encoding="utf-8")
    return root


def floor_command(dbt: str, root: Path, *args: str) -> list[str]:
    return [dbt, "run", *args, "--project-dir", str(root), "--profiles-dir", str(root),
            "--target-path", str(root / "target"), "--log-path", str(root / "logs")]
