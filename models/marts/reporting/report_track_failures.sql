{{ config_incremental_by_file('int_scoring__item_scores') }}
-- Per agent, file, track, status and message shape (error_pattern): the error and empty
-- items, ranked most frequent first. The resume report's failures by track.

with failed as (
    select
        agent,
        source_file,
        file_fingerprint,
        coalesce(track, '(Track 없음)') as track,
        status,
        coalesce({{ error_pattern('error_message', 80) }}, '(응답 없음)') as pattern,
        query_id
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }} and status in ('error', 'empty')
),

patterns as (
    select
        agent,
        source_file,
        file_fingerprint,
        track,
        status,
        pattern,
        count(*) as item_count,
        {{ string_agg_sorted('query_id', "', '", distinct=true) }} as query_ids
    from failed
    group by agent, source_file, file_fingerprint, track, status, pattern
)

select
    agent,
    source_file,
    file_fingerprint,
    -- status last breaks ties between an error and an empty group of the same pattern
    row_number() over (
        partition by agent, source_file order by item_count desc, track, pattern, status
    ) as failure_rank,
    track,
    status,
    pattern,
    item_count,
    query_ids
from patterns
