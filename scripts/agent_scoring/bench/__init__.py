"""Benchmark of the scoring warehouse at scale (issue 7), kept out of the score-report CLI.

- `generate`: synthetic exports in the real format, resampled from a bundled sample;
- `floor`: the one-query lower bound (read, parse Raw JSON once, aggregate);
- `pyscore`: a plain csv + json implementation of the plan-agent rules, the yardstick;
- `measure`: wall time and peak RSS of one step in its own process;
- `warehouse`: the marts' figures, compared with the pure-Python ones;
- `cli`: `scripts/bench`, which runs all of it and prints the table.
"""
