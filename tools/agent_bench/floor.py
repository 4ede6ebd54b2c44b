"""The floors: the least work a pipeline over these files must do, each as ONE DuckDB query.

- narrow: read four columns of every CSV once (the pinned dialect the warehouse uses), parse
  each Raw JSON cell once with a list-of-paths json_extract, aggregate per file x round. No
  table is written: this is less than the marts need.
- full (the honest floor): read every column, parse Raw JSON once for the six fields the
  scoring uses, and write one row per item into a table of an on-disk DuckDB file.

The warehouse's data-proportional cost is reported as a multiple of the full floor.

    PYTHONPATH=tools python -m agent_bench.floor INPUT_DIR --out floor.json [--kind full --db F]
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

import duckdb

READ_CSV = """read_csv(
        $files,
        header = true,
        auto_detect = false,
        delim = ',',
        quote = '"',
        escape = '"',
        max_line_size = 67108864,
        filename = true,
        columns = $columns
    )"""

NARROW_SQL = """
with exported as (
    select
        parse_filename(filename) as source_file,
        trim("방/반복") as round_label,
        "오류" as error_text,
        "Raw JSON" as raw_json
    from """ + READ_CSV + """
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

FULL_SQL = """
create or replace table items as
select
    * exclude ("Raw JSON"),
    -- only what json_valid() accepts is parsed, as in the warehouse: try() alone would run
    -- every vector holding a malformed cell again row by row
    case
        when json_valid("Raw JSON") then try(json_extract("Raw JSON", [
            '$.assistantMessage', '$.dataUIList', '$.responseTimeSec', '$.error',
            '$.executionProcesses', '$.worker'
        ]))
    end as raw_fields
from """ + READ_CSV + """
"""


def header_of(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return [name.strip() for name in next(csv.reader(handle))]


def run_floor(
    files: list[Path], kind: str = "narrow", db: Path | None = None, threads: int = 2,
    memory_limit: str = "4GB",
) -> dict:
    """Run one floor query; every file must share the first file's header."""
    if kind == "full" and db is None:
        raise ValueError("the full floor writes a table: give it a database file")
    con = duckdb.connect(
        str(db) if kind == "full" else ":memory:",
        config={"threads": threads, "memory_limit": memory_limit,
                # as the build (profiles.yml)
                "preserve_insertion_order": False, "max_vacuum_tasks": 0},
    )
    columns = {name: "VARCHAR" for name in header_of(files[0])}
    params = {"files": [str(f) for f in files], "columns": columns}
    started = time.perf_counter()
    if kind == "full":
        con.execute(FULL_SQL, params)
        con.execute("checkpoint")
        elapsed = time.perf_counter() - started
        [(rows,)] = con.execute("select count(*) from items").fetchall()
        return {"kind": kind, "query_s": elapsed, "rows": rows}
    result = con.execute(NARROW_SQL, params).fetchall()
    elapsed = time.perf_counter() - started
    return {
        "kind": kind,
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
    parser.add_argument("--kind", choices=("narrow", "full"), default="narrow")
    parser.add_argument("--db", type=Path, help="the DuckDB file the full floor writes")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="4GB")
    args = parser.parse_args(argv)
    files = sorted(args.input_dir.glob(args.glob))
    if not files:
        parser.error(f"no {args.glob} in {args.input_dir}")
    if args.kind == "full" and args.db is None:
        parser.error("--kind full needs --db")
    if args.db is not None:
        args.db.unlink(missing_ok=True)
    figures = run_floor(files, args.kind, args.db, args.threads, args.memory_limit)
    args.out.write_text(json.dumps(figures), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
