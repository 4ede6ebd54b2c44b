{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The report's "안정성 실패(에러) 패턴": per agent and file, error and empty items grouped by
-- the shape of their message (error_pattern: digits folded to N), ranked most frequent first.

with failed as (
    select
        agent,
        source_file,
        file_fingerprint,
        status,
        round_label,
        query_id,
        coalesce(
            {{ error_pattern('error_message', 80) }},
            '(응답 없음: assistantMessage·dataUIList 모두 비어 있음)'
        ) as pattern
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }} and status in ('error', 'empty')
),

patterns as (
    select
        agent,
        source_file,
        file_fingerprint,
        status,
        pattern,
        count(*) as item_count,
        {{ string_agg_sorted('round_label', "', '", distinct=true) }} as rounds,
        {{ string_agg_sorted('query_id', "', '", distinct=true) }} as query_ids
    from failed
    group by agent, source_file, file_fingerprint, status, pattern
)

select
    agent,
    source_file,
    file_fingerprint,
    -- status last breaks ties between an error and an empty group of the same pattern
    row_number() over (
        partition by agent, source_file order by item_count desc, pattern, status
    ) as pattern_rank,
    status,
    pattern,
    item_count,
    rounds,
    query_ids
from patterns
