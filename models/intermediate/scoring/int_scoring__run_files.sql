{{ config_incremental_by_file('int_scoring__item_scores') }}
-- One row per source file: what the runs and run_trends marts need of its item rows (when
-- it ran, its sizes, its query sets, its latency), computed once per file as its rows change.
{%- set rubrics = var('speed_rubrics').keys() | list %}

with items as (
    select
        *,
        {{ query_key('query_text') }} as query_key
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

run_ids as (
    select source_file, run_id, count(*) as rows_with_it
    from items
    where run_id is not null
    group by all
),

files as (
    select
        agent,
        source_file,
        min(file_fingerprint) as file_fingerprint,
        min(executed_at) as started_at,
        max(executed_at) as ended_at,
        count(*) as item_count,
        count(distinct query_id) as query_count,
        count(distinct (round_room, round_repeat)) as round_count,
        md5({{ string_agg_sorted('query_id', 'chr(31)', distinct=true) }}) as query_set_hash,
        md5({{ string_agg_sorted('query_key', 'chr(31)', distinct=true) }}) as text_set_hash,
        {%- for rubric in rubrics %}
        {{ percentile_cont('response_time_sec', 0.5, "speed_rubric = '" ~ rubric ~ "'") }}
            as p50_{{ rubric }}_sec,
        {{ percentile_cont('response_time_sec', 0.9, "speed_rubric = '" ~ rubric ~ "'") }}
            as p90_{{ rubric }}_sec,
        {%- endfor %}
        count(response_time_sec) as timed_count,
        {{ string_agg_sorted('llm_model', "', '", distinct=true) }} as llm_models,
        {{ string_agg_sorted('prompt_version', "', '", distinct=true) }} as prompt_versions
    from items
    group by agent, source_file
)

select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    (
        -- the most frequent Run ID of the file
        select {{ first_in_order('run_ids.run_id', 'run_ids.rows_with_it desc, run_ids.run_id') }}
        from run_ids
        where run_ids.source_file = files.source_file
    ) as run_id,
    files.started_at,
    files.ended_at,
    files.item_count,
    files.query_count,
    files.round_count,
    files.query_set_hash,
    files.text_set_hash,
    {%- for rubric in rubrics %}
    files.p50_{{ rubric }}_sec,
    files.p90_{{ rubric }}_sec,
    {%- endfor %}
    files.timed_count,
    files.llm_models,
    files.prompt_versions
from files
