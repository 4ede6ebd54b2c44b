{{ config(materialized='table') }}
-- Routing accuracy per run and per expected agent (expected_agent '(all)': the whole run):
-- queries, routed right, accuracy, disagreements with the export's own verdict, latency
-- (mean, p50, p90 by nearest rank, as platform_summary) and tokens per query.

with routes as (
    select * from {{ ref('router_agent__routes') }}
),

per_group as (
    select
        source_file,
        coalesce(expected_agent, '(none)') as expected_agent,
        routed_right,
        verdict_disagrees,
        status,
        response_time_sec,
        input_tokens,
        output_tokens,
        total_tokens
    from routes
    union all
    select
        source_file,
        '(all)',
        routed_right,
        verdict_disagrees,
        status,
        response_time_sec,
        input_tokens,
        output_tokens,
        total_tokens
    from routes
)

select
    source_file,
    expected_agent,
    count(*) as query_count,
    count(case when routed_right then 1 end) as routed_right_count,
    count(case when routed_right then 1 end) / count(*) as accuracy,
    count(case when verdict_disagrees then 1 end) as verdict_disagreements,
    count(case when status = 'error' then 1 end) as error_count,
    avg(response_time_sec) as latency_mean_sec,
    {{ percentile_nearest_rank('response_time_sec', 0.5) }} as latency_p50_sec,
    {{ percentile_nearest_rank('response_time_sec', 0.9) }} as latency_p90_sec,
    avg(input_tokens) as input_tokens_mean,
    avg(output_tokens) as output_tokens_mean,
    avg(total_tokens) as total_tokens_mean
from per_group
group by source_file, expected_agent
