{{ config_incremental_by_file('int_scoring__item_scores') }}
-- round_scores, computed per source file as its item rows change (round_scores is a view
-- of this table).

with items as {{ not_materialized() }} (
    -- a file by one integer, file_key(), where its rounds are grouped; its names come back
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

rounds as (
    select
        file_key,
        round_label,
        min(round_room) as round_room,
        min(round_repeat) as round_repeat,
        track_group as track,
        case when count(distinct speed_rubric) = 1 then min(speed_rubric) else 'mixed' end
            as speed_rubric,
        count(*) as item_count,
        count(intent_score) as scored_count,
        count_if(status = 'error') as error_count,
        count_if(status = 'empty') as empty_count,
        count_if(score_source = 'llm') as llm_count,
        count_if(score_source = 'heuristic') as heuristic_count,
        {{ mean_score('intent_score') }} as intent_score,
        {{ mean_score('accuracy_score') }} as accuracy_score,
        {{ mean_score('stability_score') }} as stability_score,
        count(response_time_sec) as timed_count,
        {{ mean_score('response_time_sec') }} as mean_response_time_sec,
        {{ mean_score('speed_points') }} as item_speed_points_mean,
        {{ mean_score('total_score') }} as total_score
    from item_groups
    group by file_key, round_label, track_group
)

select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    rounds.round_label,
    round_room,
    round_repeat,
    track,
    speed_rubric,
    item_count,
    scored_count,
    error_count,
    empty_count,
    llm_count,
    heuristic_count,
    intent_score,
    accuracy_score,
    stability_score,
    timed_count,
    mean_response_time_sec,
    {{ speed_points('mean_response_time_sec', 'speed_rubric') }} as speed_points,
    item_speed_points_mean,
    total_score
from rounds
inner join files on files.file_key = rounds.file_key
