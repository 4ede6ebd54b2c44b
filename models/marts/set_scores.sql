{{ config(materialized='view') }}
-- Set (세트) figures: the mean of the round figures (SCORING §2.6), never a weighted total;
-- consistency and how queries fare over repeated rounds (pass@k, pass^k, flaky); 95%
-- intervals (macros/confidence.sql).
-- A view: a mean over the few stored round rows of a file, and its stored verdict counts.

with rounds as (
    select * from {{ ref('int_scoring__round_figures') }}
),

verdict_figures as (
    -- consistency and repeats, counted per file from the verdicts
    select * from {{ ref('int_scoring__verdict_figures') }}
),

sets as (
    select
        agent,
        source_file,
        track,
        case when count(distinct speed_rubric) = 1 then min(speed_rubric) else 'mixed' end
            as speed_rubric,
        count(*) as round_count,
        sum(item_count) as item_count,
        sum(error_count) as error_count,
        sum(empty_count) as empty_count,
        sum(llm_count) as llm_count,
        sum(heuristic_count) as heuristic_count,
        {{ mean_in_order('intent_score', 'round_label') }} as intent_score,
        {{ mean_in_order('accuracy_score', 'round_label') }} as accuracy_score,
        {{ mean_in_order('stability_score', 'round_label') }} as stability_score,
        {{ mean_in_order('mean_response_time_sec', 'round_label') }} as mean_response_time_sec,
        {{ mean_in_order('item_speed_points_mean', 'round_label') }} as item_speed_points_mean,
        {{ mean_in_order('total_score', 'round_label') }} as total_score
    from rounds
    group by agent, source_file, track
)

select
    sets.agent,
    sets.source_file,
    sets.track,
    sets.speed_rubric,
    sets.round_count,
    sets.item_count,
    sets.error_count,
    sets.empty_count,
    sets.llm_count,
    sets.heuristic_count,
    sets.intent_score,
    sets.accuracy_score,
    sets.stability_score,
    sets.mean_response_time_sec,
    {{ speed_points('sets.mean_response_time_sec', 'sets.speed_rubric') }} as speed_points,
    sets.item_speed_points_mean,
    verdict_figures.consistency_score,
    verdict_figures.pass_k,
    verdict_figures.pass_k_query_count,
    verdict_figures.pass_any_round_rate,
    verdict_figures.pass_all_rounds_rate,
    coalesce(verdict_figures.flaky_query_count, 0) as flaky_query_count,
    coalesce(verdict_figures.fewer_rounds_query_count, 0) as fewer_rounds_query_count,
    {{ figure_intervals('sets', 'errors') }},
    {{ wilson_ci('verdict_figures.consistency_score / 5', 'verdict_figures.eligible_queries', 'low', 5) }}
        as consistency_score_ci_low,
    {{ wilson_ci('verdict_figures.consistency_score / 5', 'verdict_figures.eligible_queries', 'high', 5) }}
        as consistency_score_ci_high,
    {%- for rate in ['pass_any_round_rate', 'pass_all_rounds_rate'] %}
    {{ wilson_ci('verdict_figures.' ~ rate, 'verdict_figures.pass_k_query_count', 'low') }} as {{ rate }}_ci_low,
    {{ wilson_ci('verdict_figures.' ~ rate, 'verdict_figures.pass_k_query_count', 'high') }} as {{ rate }}_ci_high{{ ',' if not loop.last }}
    {%- endfor %}
from sets
left join verdict_figures
    on verdict_figures.agent = sets.agent
    and verdict_figures.source_file = sets.source_file
    and verdict_figures.track = sets.track
left join {{ ref('int_scoring__figure_errors') }} as errors
    on errors.scope = 'set'
    and errors.agent = sets.agent
    and errors.source_file = sets.source_file
    and errors.track = sets.track
