-- Export files that give no scored row at all, each with one reason a user can act on:
-- unreadable (empty, undecodable, duplicated header, not CSV), a required column missing
-- (that also fails the agent's build), or a header without data rows.

with files as (
    select * from {{ ref('stg_exports__files') }}
),

classified as (
    select
        *,
        case
            when problem_code is not null then problem_code
            when {{ list_size('missing_columns') }} > 0 then 'missing_column'
            when csv_records = 0 then 'no_data_rows'
        end as reject_code
    from files
)

select
    agent,
    source_file,
    source_path,
    encoding,
    size_bytes,
    csv_records,
    reject_code,
    case reject_code
        when 'missing_column' then
            'column "' || {{ list_item('missing_columns', 1) }} || '" is missing (required for ' || agent
            || '); add it to the export or rename the header'
        when 'no_data_rows' then 'the file has a header but no data rows; nothing to score'
        else problem
    end as reject_reason
from classified
where reject_code is not null
