{{ config_incremental_by_file() }}
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
