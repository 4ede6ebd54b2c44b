{{ config(materialized='view') }}
-- Per agent, file, round and track group (SCORING §2.6); stored per file in
-- int_scoring__round_figures as each file's rows change, with 95% intervals from the
-- standard errors of int_scoring__figure_errors.

select
    figures.agent,
    figures.source_file,
    figures.round_label,
    figures.round_room,
    figures.round_repeat,
    figures.track,
    figures.speed_rubric,
    figures.item_count,
    figures.scored_count,
    figures.error_count,
    figures.empty_count,
    figures.llm_count,
    figures.heuristic_count,
    figures.intent_score,
    figures.accuracy_score,
    figures.stability_score,
    figures.timed_count,
    figures.mean_response_time_sec,
    figures.speed_points,
    figures.item_speed_points_mean,
    {{ figure_intervals('figures', 'errors') }}
from {{ ref('int_scoring__round_figures') }} as figures
left join {{ ref('int_scoring__figure_errors') }} as errors
    on errors.scope = 'round'
    and errors.agent = figures.agent
    and errors.source_file = figures.source_file
    and errors.track = figures.track
    and errors.round_label is not distinct from figures.round_label
