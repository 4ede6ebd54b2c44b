-- One row per export file found: how it was read and where each of its rows went.
-- rows_read = rows_scored + rows_rejected for every file that was read (the singular test
-- assert_every_csv_row_is_scored_or_rejected enforces it from the marts themselves).

with files as (
    select * from {{ ref('stg_exports__files') }}
),

scored as (
    select source_file, count(*) as rows_scored
    from {{ ref('item_scores') }}
    group by all
),

rejected as (
    select source_file, count(*) as rows_rejected
    from {{ ref('rejected_rows') }}
    group by all
)

select
    files.agent,
    files.source_file,
    files.source_path,
    files.encoding,
    files.read_from,
    files.size_bytes,
    files.header_names,
    files.unknown_columns,
    files.csv_records as rows_read,
    coalesce(scored.rows_scored, 0) as rows_scored,
    coalesce(rejected.rows_rejected, 0) as rows_rejected,
    case
        when files.problem is null and {{ list_size('files.missing_columns') }} = 0
            then files.csv_records
                - coalesce(scored.rows_scored, 0) - coalesce(rejected.rows_rejected, 0)
    end as rows_unaccounted,
    files.reject_code as file_reject_code,
    files.reject_reason as file_reject_reason,
    files.sheet_name,
    files.cell_notes
from files
left join scored on scored.source_file = files.source_file
left join rejected on rejected.source_file = files.source_file
