{{ config(materialized='view') }}
-- The report's 데이터 품질 section, its table of rejected rows: per file and reject code, how
-- many rows, the reason of the first, and where the first var('rejected_locations_shown') are
-- (`#5 (line 6)`: data record 5 starting on line 6; `#5`; `line 14`), most frequent first.

{%- set shown = var('rejected_locations_shown') %}

with rejected as (
    select
        agent,
        source_file,
        reject_code,
        reject_reason,
        record_no,
        line_no
    from {{ ref('rejected_rows') }}
),

located as (
    select
        agent,
        source_file,
        reject_code,
        reject_reason,
        case
            when record_no is not null and line_no is not null
                then '#' || cast(record_no as string) || ' (line ' || cast(line_no as string) || ')'
            when record_no is not null then '#' || cast(record_no as string)
            else 'line ' || cast(line_no as string)
        end as location,
        row_number() over (
            partition by source_file, reject_code
            order by record_no nulls last, line_no nulls last
        ) as location_no
    from rejected
),

reasons as (
    select
        agent,
        source_file,
        reject_code,
        count(*) as row_count,
        {{ first_in_order('reject_reason', 'location_no') }} as first_reject_reason,
        {{ list_in_order('location', 'location_no', filter='location_no <= ' ~ shown) }}
            as locations
    from located
    group by agent, source_file, reject_code
)

select
    agent,
    source_file,
    row_number() over (partition by source_file order by row_count desc, reject_code)
        as reason_no,
    reject_code,
    row_count,
    first_reject_reason,
    locations,
    greatest(row_count - {{ shown }}, 0) as hidden_location_count
from reasons
