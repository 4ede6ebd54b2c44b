{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The report's "반복 재현 필요 질문": per agent, file and track group, each Query ID whose
-- rounds disagree on pass/fail (query_consistency verdict 'mismatch'), with its query and
-- each round's score and status in round order.

with mismatched as (
    select agent, source_file, track, query_id
    from {{ ref('query_consistency') }}
    where verdict = 'mismatch' and {{ new_file_versions() }}
),

items as (
    select * from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
)

select
    mismatched.agent,
    mismatched.source_file,
    min(items.file_fingerprint) as file_fingerprint,
    mismatched.track,
    mismatched.query_id,
    {{ first_in_order('items.query_text', 'items.record_no') }}
        filter (where items.query_text is not null) as query_text,
    {{ first_in_order('items.track', 'items.record_no') }}
        filter (where items.track is not null) as item_track,
    {{ string_agg_ordered(
        "items.round_label || '=' || coalesce(cast(cast(items.intent_score as integer) as "
        ~ dbt.type_string() ~ "), '-') || ' (' || items.status || ')'",
        "', '", 'items.round_room, items.round_repeat') }} as round_scores
from mismatched
inner join items
    on items.agent = mismatched.agent
    and items.source_file = mismatched.source_file
    and items.query_id = mismatched.query_id
group by mismatched.agent, mismatched.source_file, mismatched.track, mismatched.query_id
