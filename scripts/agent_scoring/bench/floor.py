"""The floor: the least work any pipeline over these files must do, as ONE DuckDB query.

Read every CSV once (all VARCHAR, the pinned dialect the warehouse uses), parse each Raw JSON
cell once with a list-of-paths json_extract, aggregate per file x round. The full pipeline
is reported as a multiple of this.

    python -m agent_scoring.bench.floor INPUT_DIR --out floor.json
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

import duckdb

FLOOR_SQL = """
with exported as (
    select
        parse_filename(filename) as source_file,
        trim("방/반복") as round_label,
        "오류" as error_text,
        "Raw JSON" as raw_json
    from read_csv(
        $files,
        header = true,
        auto_detect = false,
        delim = ',',
        quote = '"',
        escape = '"',
        max_line_size = 67108864,
        filename = true,
        columns = $columns
    )
),

parsed as (
    select
        source_file,
        round_label,
        error_text,
        -- invalid JSON would abort json_extract, hence the guard (as in the warehouse)
        case
            when json_valid(raw_json) and json_type(raw_json) = 'OBJECT'
                then json_extract(raw_json, [
                    '$.assistantMessage', '$.dataUIList', '$.responseTimeSec', '$.error'
                ])
        end as raw_fields
    from exported
)

select
    source_file,
    round_label,
    count(*) as item_count,
    count_if(
        raw_fields is null
        or coalesce(error_text, '') <> ''
        or coalesce(raw_fields[4] ->> '$', '') <> ''
    ) as error_count,
    avg(try_cast(raw_fields[3] as double)) as mean_response_time_sec,
    avg(json_array_length(raw_fields[2])) as mean_ui_entries,
    count_if(coalesce(raw_fields[1] ->> '$', '') <> '') as with_message
from parsed
group by source_file, round_label
order by source_file, round_label
"""


def header_of(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return [name.strip() for name in next(csv.reader(handle))]


def run_floor(files: list[Path], threads: int = 2, memory_limit: str = "4GB") -> dict:
    """Run the floor query; every file must share the first file's header."""
    con = duckdb.connect(config={"threads": threads, "memory_limit": memory_limit})
    columns = {name: "VARCHAR" for name in header_of(files[0])}
    started = time.perf_counter()
    result = con.execute(
        FLOOR_SQL, {"files": [str(f) for f in files], "columns": columns}
    ).fetchall()
    elapsed = time.perf_counter() - started
    return {
        "query_s": elapsed,
        "rows": sum(row[2] for row in result),
        "groups": len(result),
        "errors": sum(row[3] for row in result),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input_dir", type=Path)
    parser.add_argument("--glob", default="plan_agent_*.csv")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="4GB")
    args = parser.parse_args(argv)
    files = sorted(args.input_dir.glob(args.glob))
    if not files:
        parser.error(f"no {args.glob} in {args.input_dir}")
    figures = run_floor(files, args.threads, args.memory_limit)
    args.out.write_text(json.dumps(figures), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
