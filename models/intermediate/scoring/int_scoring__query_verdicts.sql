{{ config_incremental_by_file('item_scores') }}
-- query_consistency, computed per source file as its item rows change (query_consistency
-- is a view of this table).

with items as (
    select * from {{ ref('item_scores') }}
    where {{ new_file_versions() }}
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
    verdict,
    -- repeats (pass@k, pass^k) over the rounds this query has a score in
    case when round_count > 0 then pass_count > 0 end as passed_any_round,
    case when round_count > 0 then pass_count = round_count end as passed_all_rounds,
    verdict = 'mismatch' as is_flaky
from verdicts
