{{ config(materialized='view') }}
{%- do after_load() %}
-- One row per export the loader found in the input directory: how it was read, its header,
-- its record count, or why it gives no scored row (reject_code, reject_reason): unreadable
-- (empty, undecodable, duplicated header, not CSV), a required column missing (that also
-- fails the agent's build), or a header without data rows.

with source as (
    select * from {{ export_listing() }} as listing
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
        content_hash || ':' || read_key as fingerprint,
        file_fingerprint,
        header_names,
        column_names,
        missing_columns,
        unknown_columns,
        record_count as csv_records,
        problem_code,
        problem,
        sheet_name,
        cell_notes,
        run_settings,
        loaded_at
    from source
),

classified as (
    select
        *,
        case
            when problem_code is not null then problem_code
            when {{ list_size('missing_columns') }} > 0 then 'missing_column'
            when csv_records = 0 then 'no_data_rows'
        end as reject_code
    from renamed
)

select
    *,
    case reject_code
        when 'missing_column' then
            'column "' || {{ list_item('missing_columns', 1) }} || '" is missing (required for ' || agent
            || '); add it to the export or rename the header'
        when 'no_data_rows' then 'the file has a header but no data rows; nothing to score'
        else problem
    end as reject_reason
from classified
