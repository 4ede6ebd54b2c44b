{{ config(materialized='view') }}
-- One row per item and metric the platform's LLM scored: its score beside the score of the
-- rules alone (item_scores.rule_*); for 일관성, one row per Query ID: the LLM's score (the
-- mean over the query's rounds) beside ours (5 when its rounds agree, 0 when they do not).
-- What score_agreement counts and the report's "LLM 채점 검증" lists.

with items as (
    select
        items.*,
        agents.llm_score_metrics
    from {{ ref('int_scoring__item_scores') }} as items
    inner join {{ ref('agents') }} as agents on agents.agent = items.agent
),

verdicts as (
    select * from {{ ref('int_scoring__query_verdicts') }}
    where track = 'all'
),

item_pairs as (
    select
        agent, source_file, record_no, query_id, round_label, 'intent' as metric,
        1 as metric_order,
        coalesce(
            llm_intent_score,
            case when {{ list_has('llm_score_metrics', "'intent'") }} then llm_score end
        ) as llm_score,
        rule_intent_score as rule_score
    from items
    union all
    select
        agent, source_file, record_no, query_id, round_label, 'accuracy', 2,
        coalesce(
            llm_accuracy_score,
            case when {{ list_has('llm_score_metrics', "'accuracy'") }} then llm_score end
        ),
        rule_accuracy_score
    from items
    union all
    select
        agent, source_file, record_no, query_id, round_label, 'speed', 4, llm_speed_score,
        rule_speed_score
    from items
    union all
    select
        agent, source_file, record_no, query_id, round_label, 'stability', 5,
        llm_stability_score, rule_stability_score
    from items
),

query_pairs as (
    select
        items.agent,
        items.source_file,
        min(items.record_no) as record_no,
        items.query_id,
        null::string as round_label,
        'consistency' as metric,
        3 as metric_order,
        avg(items.llm_consistency_score) as llm_score,
        any_value(
            case verdicts.verdict
                when 'mismatch' then 0
                when 'all_pass' then 5
                when 'all_fail' then 5
            end
        ) as rule_score
    from items
    left join verdicts
        on verdicts.agent = items.agent
        and verdicts.source_file = items.source_file
        and verdicts.query_id = items.query_id
    where items.llm_consistency_score is not null and items.query_id is not null
    group by items.agent, items.source_file, items.query_id
),

pairs as (
    select * from item_pairs where llm_score is not null
    union all
    select * from query_pairs
)

select
    agent,
    source_file,
    record_no,
    query_id,
    round_label,
    metric,
    metric_order,
    llm_score::double as llm_score,
    rule_score::double as rule_score,
    (llm_score - rule_score)::double as score_diff
from pairs
