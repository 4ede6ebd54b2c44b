with item_groups as (
    select agent, source_file, track_group as track, query_id, round_label, consistency_input
    from {{ ref('int_scoring__item_groups') }}
),

verdicts as (
    {{ query_consistency('item_groups', ['agent', 'source_file', 'track'], 'consistency_input') }}
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
