{{ config_incremental_by_file() }}
-- query_consistency, computed per source file as its item rows change (query_consistency
-- is a view of this table).

with items as (
    select * from {{ ref('item_scores') }}
    where {{ changed_files_only() }}
),

item_groups as (
    select agent, source_file, file_fingerprint, track_group as track, query_id, round_label,
        consistency_input
    from ({{ item_groups('items') }}) as grouped
),

verdicts as (
    {{ query_consistency(
        'item_groups', ['agent', 'source_file', 'file_fingerprint', 'track'], 'consistency_input'
    ) }}
)

select
    agent,
    source_file,
    file_fingerprint,
    track,
    query_id,
    round_count,
    pass_count,
    verdict
from verdicts
