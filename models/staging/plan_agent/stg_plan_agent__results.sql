{{ config(
    materialized='incremental',
    incremental_strategy='append',
    on_schema_change='fail',
    post_hook="{{ delete_stale_file_rows() }}",
) }}
with source as (
    {{ read_export_rows('plan_agent') }}
),

parsed as (
    {{ parse_export_rows('source') }}
)

select * from parsed
