-- Per agent, test set and run, in run order: the headline figures, their change since the
-- previous run, and latency percentiles per speed rubric (what `score-report compare`
-- charts). A test set is a line of runs, each paired with the one before (see runs).
{%- set rubrics = var('speed_rubrics').keys() | list %}
{%- set metrics = ['intent_score', 'accuracy_score', 'stability_score', 'consistency_score',
                   'mean_response_time_sec', 'item_speed_points_mean'] %}

with runs as (
    select * from {{ ref('runs') }}
),

latency as (
    select
        source_file,
        {%- for rubric in rubrics %}
        p50_{{ rubric }}_sec,
        p90_{{ rubric }}_sec,
        {%- endfor %}
        timed_count
    from {{ ref('int_scoring__run_files') }}
),

ordered as (
    select
        runs.*,
        {{ star_except(['source_file'], 'latency') }},
        row_number() over (
            partition by runs.agent, runs.test_set_key order by runs.run_order
        ) as run_seq
    from runs
    left join latency on latency.source_file = runs.source_file
)

select
    head.agent,
    head.test_set_key,
    head.run_seq,
    head.source_file,
    head.run_id,
    head.started_at,
    head.previous_source_file,
    head.item_count,
    {%- for metric in metrics %}
    head.{{ metric }},
    head.{{ metric }} - base.{{ metric }} as {{ metric }}_delta,
    {%- endfor %}
    {%- for rubric in rubrics %}
    head.p50_{{ rubric }}_sec,
    head.p90_{{ rubric }}_sec,
    head.p90_{{ rubric }}_sec - base.p90_{{ rubric }}_sec as p90_{{ rubric }}_sec_delta,
    {%- endfor %}
    head.timed_count,
    head.pass_k,
    {%- for metric in ['pass_any_round_rate', 'pass_all_rounds_rate'] %}
    head.{{ metric }},
    head.{{ metric }} - base.{{ metric }} as {{ metric }}_delta,
    {%- endfor %}
    head.flaky_query_count,
    head.intent_score_ci_low,
    head.intent_score_ci_high,
    head.accuracy_score_ci_low,
    head.accuracy_score_ci_high,
    head.stability_score_ci_low,
    head.stability_score_ci_high,
    head.consistency_score_ci_low,
    head.consistency_score_ci_high
from ordered as head
left join ordered as base
    on base.agent = head.agent and base.source_file = head.previous_source_file
