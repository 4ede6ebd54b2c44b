{{ config_incremental_by_file('url_agent__url_matches') }}
-- The URL agent report's failed items: per file, each item that did not fully match, in file
-- order, with what was expected and what came back.

with matches as (
    select * from {{ ref('url_agent__url_matches') }}
    where failure_reason is not null and {{ new_file_versions() }}
),

items as (
    select * from {{ ref('int_scoring__item_scores') }}
    where agent = 'url_agent' and {{ new_file_versions() }}
)

select
    matches.source_file,
    matches.file_fingerprint,
    matches.record_no,
    row_number() over (partition by matches.source_file order by matches.record_no)
        as item_rank,
    count(*) over (partition by matches.source_file) as file_failed_count,
    items.query_id,
    items.query_text,
    items.round_label,
    matches.failure_reason,
    matches.match_kind,
    items.accuracy_score,
    coalesce(matches.expected_data_key, matches.expected_path) as expected,
    {{ list_joined('matches.button_urls', "' '") }} as returned,
    items.error_message
from matches
inner join items
    on items.source_file = matches.source_file and items.record_no = matches.record_no
