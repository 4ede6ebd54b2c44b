{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- One row per export row of the resume agent, labelled ok/partial/error/empty (SCORING §3):
-- ok 5, partial 4 (the reply asks the user for more), error/empty 0.

with results as (
    {{ agent_rows('resume_agent', ref('int_exports__results')) }}
),

phrases as (
    select phrase, {{ without_whitespace('phrase') }} as compact_phrase
    from {{ ref('resume_partial_phrases') }}
),

texts as (
    -- Raw JSON unparsable but 응답 present: judge the 응답 text instead, and say so
    select
        *,
        not raw_json_is_valid and response_text is not null as used_response_fallback,
        case
            when raw_json_is_valid then assistant_message
            else response_text
        end as judged_message
    from results
),

matched_phrases as (
    -- the longest phrase found names the row's partial reason ('선택해 주세요' over '선택')
    select
        texts.source_file,
        texts.record_no,
        {{ first_in_order("phrases.phrase", "length(phrases.compact_phrase) desc, phrases.phrase") }}
            as partial_phrase
    from texts
    inner join phrases
        on instr({{ without_whitespace('texts.judged_message') }}, phrases.compact_phrase) > 0
    group by all
),

labelled as (
    select
        texts.*,
        matched_phrases.partial_phrase as matched_phrase,
        case
            when texts.used_response_fallback then texts.error_text
            else {{ failure_message('texts') }}
        end as error_message
    from texts
    left join matched_phrases
        on matched_phrases.source_file = texts.source_file
        and matched_phrases.record_no = texts.record_no
),

scored as (
    select
        *,
        {{ status_label(
            error_when='error_message is not null',
            empty_when="coalesce(trim(judged_message), '') = '' and coalesce("
                ~ list_size('ui_values') ~ ", 0) = 0",
            partial_when='matched_phrase is not null'
        ) }} as status,
        case status when 'ok' then 5 when 'partial' then 4 else 0 end as heuristic_score
    from labelled
)

{{ item_scores_from('scored', 'resume_agent', columns={
    'partial_phrase': "case when status = 'partial' then matched_phrase end",
    'reply_excerpt': 'left(judged_message, 200)',
    'used_response_fallback': 'used_response_fallback',
}) }}
