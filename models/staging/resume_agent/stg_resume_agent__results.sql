{{ config(
    materialized='incremental',
    incremental_strategy='append',
    on_schema_change='fail',
    post_hook="{{ delete_stale_file_rows() }}",
) }}
with source as (
    {{ read_export_rows('resume_agent') }}
),

parsed as (
    {{ parse_export_rows('source', extra_columns=['track']) }}
)

select
    *,
    -- `Track 3`, `3`, `T3`, `track3` all mean Track 3; anything else stays unknown
    try_cast(regexp_extract(track, '^(?i)(?:track|t)?\s*([0-9]+)$', 1) as integer)
        as track_number
from parsed
