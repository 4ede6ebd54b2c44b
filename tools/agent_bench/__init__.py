"""Benchmark of the scoring warehouse at scale (issue 7): a development tool, kept out of the
installed package (tools/, not scripts/; `scripts/bench` puts tools/ on sys.path).

- `generate`: synthetic exports in the real format, resampled from a bundled sample;
- `floor`: the one-query lower bound (read, parse Raw JSON once, aggregate);
- `pyscore`: a plain csv + json implementation of the plan-agent rules, the yardstick;
- `measure`: wall time and peak RSS of one step in its own process;
- `warehouse`: the marts' figures, compared with the pure-Python ones;
- `runner`: the runs, each step in its own process, its own DB and dbt target;
- `results`: the steps' figures, the targets and their verdicts, the printed table;
- `cli`: `scripts/bench`, which runs all of it and prints the table.
"""
