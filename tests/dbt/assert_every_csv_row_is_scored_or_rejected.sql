-- SCORING §0: nothing is dropped silently. For every export file that was read, its data
-- records counted by their quotes (input_files.rows_read: the loader's count, or staging's
-- where DuckDB's read disagreed; a count independent of the DuckDB read that scores them)
-- must equal the rows in item_scores plus the rows in rejected_rows. Any row returned
-- names a file whose rows do not add up.

with files as (
    select source_file, rows_read as csv_records
    from {{ ref('input_files') }}
    where rows_unaccounted is not null
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
),

compared as (
    select
        coalesce(files.source_file, scored.source_file, rejected.source_file) as source_file,
        files.csv_records,
        coalesce(scored.rows_scored, 0) as rows_scored,
        coalesce(rejected.rows_rejected, 0) as rows_rejected
    from files
    full outer join scored on scored.source_file = files.source_file
    full outer join rejected
        on rejected.source_file = coalesce(files.source_file, scored.source_file)
)

select
    source_file,
    csv_records,
    rows_scored,
    rows_rejected,
    csv_records - rows_scored - rows_rejected as rows_unaccounted
from compared
where csv_records is null
    or csv_records <> rows_scored + rows_rejected
