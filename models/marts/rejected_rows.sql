-- Every export record that was read but not scored, with where it is and why (SCORING §0):
-- records DuckDB could not parse as CSV (csv_*, with the line they start on) and parsed rows
-- a row rule rejected. stg_exports__rows decides both, int_exports__repeated_items which
-- records repeat an earlier record's Item ID.

with repeats as (
    select source_file, record_no, reject_code, reject_reason
    from {{ ref('int_exports__repeated_items') }}
    where record_no is not null
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
-- the model twice, not a CTE: a CTE read twice is kept whole, Raw JSON fields included
from {{ ref('stg_exports__rows') }}
where reject_code is not null
union all
select
    rows.agent,
    rows.source_file,
    rows.record_no,
    rows.line_no,
    repeats.reject_code,
    repeats.reject_reason,
    rows.item_id,
    rows.query_id,
    rows.round_label,
    rows.excerpt
from repeats
inner join {{ ref('stg_exports__rows') }} as rows
    on rows.source_file = repeats.source_file
    and rows.record_no = repeats.record_no
