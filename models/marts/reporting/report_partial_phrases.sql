{{ config_incremental_by_file('int_scoring__item_scores') }}
-- Per agent, file and phrase: the partial replies (status partial) that phrase made partial
-- (seeds/resume_partial_phrases.csv), ranked most frequent first, with the first such reply
-- of the file as an example. The resume report's "부분 응답 문구".

with partial_items as (
    select * from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }} and status = 'partial'
),

phrases as (
    select
        agent,
        source_file,
        file_fingerprint,
        partial_phrase as phrase,
        count(*) as item_count,
        {{ string_agg_sorted('track', "', '", distinct=true) }} as tracks,
        {{ string_agg_sorted('query_id', "', '", distinct=true) }} as query_ids,
        -- the first reply in the file, so the example is the same on every build
        left(
            {{ first_in_order('reply_excerpt', 'record_no') }}
                filter (where reply_excerpt is not null),
            120
        ) as example
    from partial_items
    group by agent, source_file, file_fingerprint, partial_phrase
)

select
    agent,
    source_file,
    file_fingerprint,
    row_number() over (
        partition by agent, source_file order by item_count desc, phrase nulls last
    ) as phrase_rank,
    phrase,
    item_count,
    tracks,
    query_ids,
    example
from phrases
