-- Every export record that was read but not scored, with where it is and why (SCORING §0).
-- Two kinds: records DuckDB could not parse as CSV (line_no from the probe in
-- stg_exports__files) and parsed rows a row rule rejected (stg_exports__rows).

with files as (
    select agent, source_file, csv_rejects
    from {{ ref('stg_exports__files') }}
    where problem is null and len(missing_columns) = 0
),

csv_rejects as (
    select agent, source_file, unnest(csv_rejects) as reject
    from files
),

unparsable as (
    select
        agent,
        source_file,
        reject.record_no,
        reject.line_no,
        case reject.error_type
            when 'UNQUOTED VALUE' then 'csv_bad_quote'
            when 'TOO MANY COLUMNS' then 'csv_too_many_columns'
            when 'MISSING COLUMNS' then 'csv_missing_columns'
            when 'INVALID ENCODING' then 'csv_invalid_encoding'
            when 'INVALID UNICODE' then 'csv_invalid_encoding'
            when 'LINE SIZE OVER MAXIMUM' then 'csv_line_too_long'
            else 'csv_unparsable'
        end as reject_code,
        'CSV record on line ' || reject.line_no || ' cannot be parsed: '
            || reject.error_message as reject_reason,
        null::varchar as item_id,
        null::varchar as query_id,
        null::varchar as round_label,
        reject.csv_line as excerpt
    from csv_rejects
),

rule_rejects as (
    select
        agent,
        source_file,
        record_no,
        null::bigint as line_no,
        reject_code,
        reject_reason,
        item_id,
        query_id,
        round_label,
        null::varchar as excerpt
    from {{ ref('stg_exports__rows') }}
    where reject_code is not null
),

rejected as (
    select * from unparsable
    union all
    select * from rule_rejects
)

select
    agent,
    source_file,
    record_no,
    line_no,
    reject_code,
    reject_reason,
    item_id,
    query_id,
    round_label,
    excerpt
from rejected
