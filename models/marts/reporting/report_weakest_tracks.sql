{{ config(materialized='view') }}
-- Per agent, file and figure of the set: the track scoring lowest (every track tied at the
-- lowest), its figure and the best track's. The resume report's "가장 약한 Track".

{%- set metrics = {'intent_score': '의도 충족', 'accuracy_score': '정확성',
                   'stability_score': '안정성', 'item_speed_points_mean': '응답 속도',
                   'consistency_score': '일관성'} %}

with track_sets as (
    -- single tracks only: not 'all' or a track group
    select * from {{ ref('set_scores') }}
    where track like 'Track _'
),

figures as (
    {%- for metric, label in metrics.items() %}
    select
        agent,
        source_file,
        track,
        '{{ metric }}' as metric,
        {{ loop.index }} as metric_order,
        {{ sql_string(label) }} as metric_label,
        {{ metric }} as figure
    from track_sets
    where {{ metric }} is not null
    {{ "union all" if not loop.last }}
    {%- endfor %}
),

bounds as (
    select
        agent,
        source_file,
        metric,
        min(metric_order) as metric_order,
        min(metric_label) as metric_label,
        min(figure) as lowest,
        max(figure) as highest
    from figures
    group by agent, source_file, metric
)

select
    bounds.agent,
    bounds.source_file,
    bounds.metric,
    bounds.metric_order,
    bounds.metric_label,
    {{ string_agg_sorted('figures.track', "', '") }} as weakest_tracks,
    min(bounds.lowest) as lowest,
    min(bounds.highest) as highest
from bounds
inner join figures
    on figures.agent = bounds.agent
    and figures.source_file = bounds.source_file
    and figures.metric = bounds.metric
    and figures.figure = bounds.lowest
group by bounds.agent, bounds.source_file, bounds.metric, bounds.metric_order,
    bounds.metric_label
