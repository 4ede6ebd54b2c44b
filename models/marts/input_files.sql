-- One row per export file found: how it was read and where each of its rows went.
-- rows_read = rows_scored + rows_rejected for every file that was read (the singular test
-- assert_every_csv_row_is_scored_or_rejected enforces it from the marts themselves).

with listed as (
    select * from {{ ref('stg_exports__files') }}
),

settled as (
    -- what reading a file settled: its records counted by their quotes (the loader's count,
    -- or staging's where DuckDB's read disagreed with it), and a file refused whole because
    -- the two cannot agree (ambiguous_records)
    select
        source_file,
        max(file_records) as file_records,
        max(reject_reason) filter (where reject_code = 'ambiguous_records') as ambiguous_reason
    from {{ ref('stg_exports__rows') }}
    group by source_file
),

files as (
    select
        {{ star_except(['csv_records', 'problem', 'reject_code', 'reject_reason'], 'listed') }},
        coalesce(settled.file_records, listed.csv_records) as csv_records,
        coalesce(listed.problem, settled.ambiguous_reason) as problem,
        coalesce(listed.reject_code,
            case when settled.ambiguous_reason is not null then 'ambiguous_records' end)
            as reject_code,
        coalesce(listed.reject_reason, settled.ambiguous_reason) as reject_reason
    from listed
    left join settled on settled.source_file = listed.source_file
),

scored as (
    select source_file, count(*) as rows_scored
    from {{ ref('int_scoring__item_scores') }}
    group by all
),

rejected as (
    select
        source_file,
        count(*) as rows_rejected,
        {{ first_in_order('reject_reason', 'record_no') }} as first_reject_reason
    from {{ ref('rejected_rows') }}
    group by source_file
),

classified as (
    -- a file read whole whose every row was rejected gives no scored row either: refused
    select
        files.*,
        coalesce(scored.rows_scored, 0) as rows_scored,
        coalesce(rejected.rows_rejected, 0) as rows_rejected,
        rejected.first_reject_reason,
        case
            when files.reject_code is not null then files.reject_code
            when coalesce(scored.rows_scored, 0) = 0 and coalesce(rejected.rows_rejected, 0) > 0
                then 'all_rows_rejected'
        end as file_reject_code
    from files
    left join scored on scored.source_file = files.source_file
    left join rejected on rejected.source_file = files.source_file
)

select
    agent,
    source_file,
    source_path,
    encoding,
    read_from,
    size_bytes,
    header_names,
    unknown_columns,
    csv_records as rows_read,
    rows_scored,
    rows_rejected,
    case
        when problem is null and {{ list_size('missing_columns') }} = 0
            then csv_records - rows_scored - rows_rejected
    end as rows_unaccounted,
    file_reject_code,
    case file_reject_code
        when 'all_rows_rejected' then
            'every one of its ' || rows_rejected || ' rows was rejected (rejected_rows); the first: '
            || first_reject_reason
        else reject_reason
    end as file_reject_reason,
    sheet_name,
    cell_notes
from classified
