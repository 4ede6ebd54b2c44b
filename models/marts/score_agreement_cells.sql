{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The confusion counts of score_agreement: per agent, file and metric, the items at each
-- (LLM score, rule score); a rule_score of null counts the items the rules could not score.
-- Stored per file as its items change: as a view, each read of score_agreement (the report,
-- its test) paired every item's scores again.

with pairs as (
    select * from {{ ref('score_pairs') }}
    where {{ new_file_versions() }}
),

files as (
    {{ file_names(ref('int_scoring__item_scores'), new_file_versions()) }}
),

cells as (
    select
        agent,
        source_file,
        metric,
        min(metric_order) as metric_order,
        llm_score,
        rule_score,
        count(*) as item_count
    from pairs
    group by agent, source_file, metric, llm_score, rule_score
)

select
    cells.agent,
    cells.source_file,
    files.file_fingerprint,
    cells.metric,
    cells.metric_order,
    cells.llm_score,
    cells.rule_score,
    cells.item_count
from cells
inner join files on files.agent = cells.agent and files.source_file = cells.source_file
