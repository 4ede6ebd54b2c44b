with item_groups as (
    select agent, source_file, track_group as track, query_id, round_label, intent_score
    from {{ ref('int_scoring__item_groups') }}
),

verdicts as (
    {{ query_consistency('item_groups', ['agent', 'source_file', 'track']) }}
)

select
    agent,
    source_file,
    track,
    query_id,
    round_count,
    pass_count,
    verdict
from verdicts
