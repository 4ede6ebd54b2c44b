{{ config_incremental_by_file() }}
with source as (
    {{ read_export_rows('plan_agent') }}
),

parsed as (
    {{ parse_export_rows('source') }}
)

select * from parsed
