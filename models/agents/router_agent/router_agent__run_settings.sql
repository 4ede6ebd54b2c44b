{{ config(materialized='table') }}
-- The settings each routing run was made with (its run_config sheet: model, temperature,
-- top_p, top_k, seed, system prompt, ...), one row per run and setting, beside the same
-- setting of the run before it (the runs mart's previous run) and whether it changed.

with files as (
    select source_file, run_settings
    from {{ ref('stg_exports__files') }}
    where agent = 'router_agent' and run_settings is not null
),

settings as (
    select source_file, setting_no, entry.setting as setting, entry.value as setting_value
    from (
        select source_file, {{ unnest_numbered('run_settings', 'setting_no', 'entry') }}
        from files
    ) as entries
),

runs as (
    select source_file, previous_source_file
    from {{ ref('runs') }}
    where agent = 'router_agent'
)

select
    settings.source_file,
    cast(settings.setting_no as integer) as setting_no,
    settings.setting,
    settings.setting_value,
    runs.previous_source_file,
    previous.setting_value as previous_value,
    runs.previous_source_file is not null
        and coalesce(previous.setting_value, '') <> coalesce(settings.setting_value, '')
        as changed
from settings
inner join runs on runs.source_file = settings.source_file
left join settings as previous
    on previous.source_file = runs.previous_source_file
    and previous.setting = settings.setting
