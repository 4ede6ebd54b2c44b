{{ config_incremental_by_file('int_scoring__item_scores') }}
-- query_consistency, computed per source file as its item rows change (query_consistency
-- is a view of this table).

with items as {{ not_materialized() }} (
    -- a file by one integer, file_key(), where the rounds and queries are grouped (a million
    -- items: 2.8 -> 1.6 s of CPU); its names come back from `files` at the end
    select
        {{ star_except(['source_file', 'file_fingerprint']) }},
        {{ file_key('source_file') }} as file_key
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

files as (
    {{ file_names(ref('int_scoring__item_scores'), new_file_versions()) }}
),

item_groups as (
    select file_key, track_group as track, query_id, round_label, consistency_input
    from ({{ item_groups('items') }}) as grouped
),

verdicts as (
    {{ query_consistency('item_groups', ['file_key', 'track'], 'consistency_input') }}
)

select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    verdicts.track,
    query_id,
    round_count,
    pass_count,
    verdict,
    -- repeats (pass@k, pass^k) over the rounds this query has a score in
    case when round_count > 0 then pass_count > 0 end as passed_any_round,
    case when round_count > 0 then pass_count = round_count end as passed_all_rounds,
    verdict = 'mismatch' as is_flaky
from verdicts
inner join files on files.file_key = verdicts.file_key
