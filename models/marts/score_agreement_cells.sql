{{ config(materialized='view') }}
-- The confusion counts of score_agreement: per agent, file and metric, the items at each
-- (LLM score, rule score); a rule_score of null counts the items the rules could not score.

select
    agent,
    source_file,
    metric,
    min(metric_order) as metric_order,
    llm_score,
    rule_score,
    count(*) as item_count
from {{ ref('score_pairs') }}
group by agent, source_file, metric, llm_score, rule_score
