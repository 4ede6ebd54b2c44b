{{ config(materialized='view') }}
-- Per agent, file, round and track group (SCORING §2.6); stored per file in
-- int_scoring__round_figures as each file's rows change.

select
    agent,
    source_file,
    round_label,
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
    speed_points,
    item_speed_points_mean
from {{ ref('int_scoring__round_figures') }}
