{{ config(materialized='view') }}
-- The confusion counts of score_agreement: per agent, file and metric, the items at each
-- (LLM score, rule score).

select
    agent,
    source_file,
    metric,
    llm_score,
    rule_score,
    count(*) as item_count
from {{ ref('score_pairs') }}
where rule_score is not null
group by agent, source_file, metric, llm_score, rule_score
