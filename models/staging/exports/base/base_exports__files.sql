{{ config(materialized='view') }}
{%- do after_load() %}
-- Every export the loader listed (raw.export_files), as it listed it: the one model that reads
-- the source table, so that stg_exports__files (what each file is) and stg_exports__rows
-- (which files' rows are new, and which exports it reads in place) read it from one place.

with source as (
    select * from {{ source('exports', 'export_files') }}
)

select
    agent,
    source_path,
    source_file,
    size_bytes,
    modified_ns,
    content_hash,
    read_key,
    file_version,
    {{ listed_file_fingerprint('source') }} as file_fingerprint,
    encoding,
    read_from,
    sheet_name,
    header_names,
    column_names,
    missing_columns,
    unknown_columns,
    record_count,
    parsed_records,
    problem_code,
    problem,
    cell_notes,
    loaded_at,
    run_settings,
    read_by,
    read_spec,
    read_path,
    wide_rejects
from source
