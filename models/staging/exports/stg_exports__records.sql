{{ config(materialized='view') }}
-- Every CSV record DuckDB parsed from every readable export, as text, numbered by its
-- position in the file. A view: the files are read once, when stg_exports__rows is built.

with parsed as (
    {{ read_export_csv() }}
),

csv_rejects as (
    -- records the probe could not parse: they are missing from `parsed`
    select source_file, unnest(csv_rejects).record_no as record_no
    from {{ ref('stg_exports__files') }}
),

reject_steps as (
    -- after `parsed_before` parsed records, `rejected_so_far` records had been skipped
    select
        source_file,
        record_no - row_number() over (partition by source_file order by record_no)
            as parsed_before,
        row_number() over (partition by source_file order by record_no) as rejected_so_far
    from csv_rejects
    where record_no is not null
),

reject_offsets as (
    select source_file, parsed_before, max(rejected_so_far) as rejected_so_far
    from reject_steps
    group by all
),

numbered as (
    select
        parsed.*,
        parsed.parsed_no + coalesce(reject_offsets.rejected_so_far, 0) as record_no
    from parsed
    asof left join reject_offsets
        on reject_offsets.source_file = parsed.source_file
        and parsed.parsed_no > reject_offsets.parsed_before
)

select
    agent,
    source_file,
    file_fingerprint,
    record_no,
    {%- for column in export_text_columns() %}
    {{ column }}{{ "," if not loop.last }}
    {%- endfor %}
from numbered
