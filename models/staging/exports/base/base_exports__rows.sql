{{ config(materialized='view') }}
{%- do after_load() %}
-- Every record the loader landed (raw.export_rows), as it landed it: the one model that reads
-- the source table. stg_exports__rows takes the new files' records from here, and reads the
-- exports the loader left in place itself (direct_export_reads).

with source as (
    select * from {{ source('exports', 'export_rows') }}
)

select
    agent,
    source_file,
    file_version,
    record_no,
    line_no,
    {%- for column in export_text_columns() %}
    {{ column }},
    {%- endfor %}
    raw_json,
    extra_columns,
    csv_error_type,
    csv_error,
    csv_line
from source
