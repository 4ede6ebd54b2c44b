{{ config_incremental_by_file('url_agent__url_matches') }}
-- The URL agent report's failure reasons: per file and reason (url_agent__url_matches), its
-- items and their rounds, ranked most frequent first.

with matches as (
    select * from {{ ref('url_agent__url_matches') }}
    where failure_reason is not null and {{ new_file_versions() }}
),

items as (
    select source_file, record_no, round_label from {{ ref('int_scoring__item_scores') }}
    where agent = 'url_agent' and {{ new_file_versions() }}
),

reasons as (
    select
        matches.source_file,
        matches.file_fingerprint,
        matches.failure_reason,
        count(*) as item_count,
        {{ string_agg_sorted('items.round_label', "', '", distinct=true) }} as rounds
    from matches
    inner join items
        on items.source_file = matches.source_file and items.record_no = matches.record_no
    group by matches.source_file, matches.file_fingerprint, matches.failure_reason
)

select
    source_file,
    file_fingerprint,
    row_number() over (
        partition by source_file order by item_count desc, failure_reason
    ) as reason_rank,
    failure_reason,
    item_count,
    rounds
from reasons
