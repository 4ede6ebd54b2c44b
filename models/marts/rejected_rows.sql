-- Every export record that was read but not scored, with where it is and why (SCORING §0):
-- records DuckDB could not parse as CSV (csv_*, with the line they start on) and parsed rows
-- a row rule rejected (a repeated Item ID among them). stg_exports__rows decides both. The
-- row that refuses a file whole (ambiguous_records) is no record: rejected_files lists it.

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
from {{ ref('stg_exports__rows') }}
where reject_code is not null
    and reject_code <> 'ambiguous_records'
