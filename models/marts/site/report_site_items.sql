{{ config(materialized='view') }}
-- One row per scored item with everything the run browser (score-report site) shows of it:
-- the item table's columns and the item page's query, expected result, raw reply, LLM
-- comment, speed band and whether its query is flaky. A view: the site reads it once per
-- run it writes, and a build pays nothing for it.

with items as (
    select * from {{ ref('int_scoring__item_scores') }}
),

exported as (
    -- what the export says of the item beyond its scores: the Raw JSON as exported is kept
    -- for the first var('site_replies_per_file') records of a file (macros raw_reply)
    select source_file, record_no, expected_result, llm_comment, raw_reply
    from {{ ref('int_exports__results') }}
),

flaky as (
    select agent, source_file, query_id, is_flaky
    from {{ ref('query_consistency') }}
    where track = 'all'
),

failed_checks as (
    select
        checks.agent,
        checks.source_file,
        checks.record_no,
        {{ failed_checks_text('checks') }} as failed_checks
    from {{ ref('check_results') }} as checks
    where not checks.passed
    group by checks.agent, checks.source_file, checks.record_no
)

select
    items.agent,
    items.source_file,
    items.record_no,
    items.item_id,
    items.query_id,
    items.round_label,
    items.round_room,
    items.round_repeat,
    items.track,
    items.category,
    items.query_text,
    exported.expected_result,
    items.status,
    items.error_message,
    failed_checks.failed_checks,
    items.check_count,
    items.check_passed,
    items.score_source,
    items.intent_score,
    items.rule_intent_score,
    items.llm_intent_score,
    items.llm_score,
    -- the platform LLM's score of the item beside the rules': 의도충족 점수, or the older
    -- layouts' LLM 점수
    coalesce(items.llm_intent_score, items.llm_score) as llm_item_score,
    items.llm_status,
    exported.llm_comment,
    items.total_score,
    items.response_time_sec,
    items.response_time_problem,
    items.speed_rubric,
    items.speed_points,
    bands.band_label as speed_band_label,
    coalesce(flaky.is_flaky, false) as is_flaky,
    items.reply_excerpt,
    exported.raw_reply
from items
left join exported
    on exported.source_file = items.source_file
    and exported.record_no = items.record_no
left join flaky
    on flaky.agent = items.agent
    and flaky.source_file = items.source_file
    and flaky.query_id = items.query_id
left join failed_checks
    on failed_checks.agent = items.agent
    and failed_checks.source_file = items.source_file
    and failed_checks.record_no = items.record_no
left join {{ ref('speed_bands') }} as bands
    on bands.speed_rubric = items.speed_rubric
    and bands.points = items.speed_points
