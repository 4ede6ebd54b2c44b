{{ config(materialized='view') }}
{%- do after_load() %}
-- One row per export the loader found in the input directory: how it was read, its header,
-- its record count, or why it cannot be read.

with source as (
    select * from {{ source('exports', 'export_files') }}
),

renamed as (
    select
        agent,
        source_path,
        source_file,
        encoding,
        read_from,
        size_bytes,
        {{ int_div('modified_ns', 1000000000) }} as modified_epoch,
        content_hash,
        {{ landed_fingerprint('source') }} as fingerprint,
        header_names,
        column_names,
        missing_columns,
        unknown_columns,
        record_count as csv_records,
        parsed_records,
        problem_code,
        problem,
        sheet_name,
        cell_notes,
        loaded_at
    from source
)

select * from renamed
