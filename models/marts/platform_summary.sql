{{ config_incremental_by_file('int_scoring__item_scores') }}
-- Per agent and file: the headline figures the team's platform reports, in its terms - the
-- total (종합 점수) and the share of items failing it, latency p50 / p90 per speed class by
-- nearest rank, error and empty rates; the total's 95% interval, clustered by Query ID.
-- Stored per file as its items change (as a view, each read aggregated every item).
{%- set rubrics = var('speed_rubrics').keys() | list %}

with items as {{ not_materialized() }} (
    select * from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

total_errors as (
    {{ clustered_standard_errors(
        "(select agent, source_file, " ~ query_cluster() ~ " as query_cluster,"
            ~ " total_score from items)",
        ['agent', 'source_file'], 'query_cluster', ['total_score'], bound=5) }}
),

summary as (
select
    agent,
    source_file,
    min(file_fingerprint) as file_fingerprint,
    count(*) as item_count,
    -- summed in file order: a stored mean must not depend on the order a parallel sum met
    -- the items in (a rebuild would store other last bits)
    {{ mean_in_order('total_score', 'record_no') }} as total_score,
    count(total_score) as total_scored_count,
    count(llm_consistency_score) as consistency_given_count,
    {{ var('fail_total_below') }}::double as fail_total_below,
    count(*) filter (where total_score < {{ var('fail_total_below') }}) as fail_count,
    count(*) filter (where total_score < {{ var('fail_total_below') }}) / nullif(count(total_score), 0)
        as fail_rate,
    count(*) filter (where status = 'error') / count(*) as error_rate,
    count(*) filter (where status = 'empty') / count(*) as empty_rate,
    {%- for rubric in rubrics %}
    {{ percentile_nearest_rank('response_time_sec', 0.5, "speed_rubric = '" ~ rubric ~ "'") }}
        as p50_{{ rubric }}_sec,
    {{ percentile_nearest_rank('response_time_sec', 0.9, "speed_rubric = '" ~ rubric ~ "'") }}
        as p90_{{ rubric }}_sec,
    count(response_time_sec) filter (where speed_rubric = '{{ rubric }}')
        as timed_{{ rubric }}_count,
    {%- endfor %}
    count(*) filter (where speed_rubric is null
        or speed_rubric not in ({% for rubric in rubrics %}'{{ rubric }}'{{ ', ' if not loop.last }}{% endfor %}))
        as unclassified_count,
    count(*) filter (where response_time_sec is null) as untimed_count
from items
group by agent, source_file
)

select
    summary.*,
    {{ normal_ci('summary.total_score', 'total_errors.total_score_se', 'low', 0, 5) }}
        as total_score_ci_low,
    {{ normal_ci('summary.total_score', 'total_errors.total_score_se', 'high', 0, 5) }}
        as total_score_ci_high
from summary
left join total_errors
    on total_errors.agent = summary.agent and total_errors.source_file = summary.source_file
