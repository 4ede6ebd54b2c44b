{{ config(materialized='view') }}
-- Per agent, file and metric: how far the platform's LLM scores agree with the rules
-- (score_pairs). Speed and stability need no judgement: a disagreement there is the LLM's
-- error.

select
    agent,
    source_file,
    metric,
    min(metric_order) as metric_order,
    count(score_diff) as item_count,
    count(*) filter (where score_diff = 0) as exact_agree,
    count(*) filter (where abs(score_diff) <= 1) as within_one,
    avg(abs(score_diff)) as mean_abs_diff,
    count(*) filter (where score_diff > 0) as llm_higher,
    count(*) filter (where score_diff < 0) as llm_lower,
    count(*) filter (where abs(score_diff) >= 2) as far_apart,
    count(*) - count(score_diff) as rule_unscored
from {{ ref('score_pairs') }}
group by agent, source_file, metric
