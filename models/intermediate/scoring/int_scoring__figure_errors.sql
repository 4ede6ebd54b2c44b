{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The standard errors of the round and set figures, clustered by Query ID (macros/confidence.sql);
-- round_scores and set_scores turn them into 95% intervals. Computed per source file as
-- its item rows change.

with items as {{ not_materialized() }} (
    -- a file by one integer, file_key(), where the items are grouped; its names come back
    -- from `files` at the end
    select
        {{ star_except(['source_file', 'file_fingerprint']) }},
        {{ file_key('source_file') }} as file_key
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

files as (
    {{ file_names(ref('int_scoring__item_scores'), new_file_versions()) }}
),

item_groups as (
    {{ item_groups('items') }}
),

clustered as {{ not_materialized() }} (
    select
        file_key,
        track_group as track,
        round_label,
        {{ query_cluster() }} as query_cluster,
        intent_score,
        accuracy_score,
        stability_score,
        response_time_sec,
        speed_points,
        total_score
    from item_groups
),

{%- set figures = ['intent_score', 'accuracy_score', 'stability_score', 'response_time_sec',
    'speed_points', 'total_score'] %}
{#- scores are 0-5; a response time above var('max_response_time_sec') has none -#}
{%- set bound = [5, var('max_response_time_sec') | float] | max %}

round_errors as (
    {{ clustered_standard_errors(
        'clustered', ['file_key', 'track', 'round_label'],
        'query_cluster', figures, bound=bound) }}
),

set_errors as (
    {{ clustered_standard_errors(
        'clustered', ['file_key', 'track'],
        'query_cluster', figures, stratum='round_label', bound=bound) }}
)

select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    round_errors.track,
    'round' as scope,
    round_label,
    cluster_count,
    intent_score_se,
    accuracy_score_se,
    stability_score_se,
    response_time_sec_se as mean_response_time_sec_se,
    speed_points_se as item_speed_points_mean_se,
    total_score_se
from round_errors
inner join files on files.file_key = round_errors.file_key
union all
select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    set_errors.track,
    'set' as scope,
    null as round_label,
    cluster_count,
    intent_score_se,
    accuracy_score_se,
    stability_score_se,
    response_time_sec_se as mean_response_time_sec_se,
    speed_points_se as item_speed_points_mean_se,
    total_score_se
from set_errors
inner join files on files.file_key = set_errors.file_key
