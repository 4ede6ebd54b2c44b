{{ config_incremental_by_file() }}
-- One row per export row of the resume agent, labelled ok/partial/error/empty (SCORING §3).

with results as (
    select * from {{ ref('stg_resume_agent__results') }}
    where {{ changed_files_only() }}
),

phrases as (
    select phrase, regexp_replace(phrase, '\s+', '', 'g') as compact_phrase
    from {{ ref('resume_partial_phrases') }}
),

track_rubrics as (
    select track_number, speed_rubric from {{ ref('resume_track_rubrics') }}
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
        first(phrases.phrase order by length(phrases.compact_phrase) desc, phrases.phrase)
            as partial_phrase
    from texts
    inner join phrases
        on strpos(regexp_replace(texts.judged_message, '\s+', '', 'g'), phrases.compact_phrase) > 0
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

statused as (
    select
        *,
        {{ status_label(
            error_when='error_message is not null',
            empty_when="coalesce(trim(judged_message), '') = '' and coalesce(len(ui_values), 0) = 0",
            partial_when='matched_phrase is not null'
        ) }} as status
    from labelled
),

scored as (
    select
        statused.*,
        track_rubrics.speed_rubric as track_speed_rubric,
        case when status = 'partial' then matched_phrase end as partial_phrase,
        case status when 'ok' then 5 when 'partial' then 4 else 0 end as heuristic_score,
        case when {{ llm_score_usable('llm_score_raw', 'llm_status') }} then llm_score_raw end
            as llm_score,
        case when statused.track_number is not null then 'Track ' || statused.track_number end
            as track_label,
        coalesce(
            track_rubrics.speed_rubric,
            -- no known track: several workers or processes mean a multi-tool run
            case
                when greatest(coalesce(execution_count, 0), coalesce(worker_count, 0)) >= 2
                    then 'multi'
                else 'single'
            end
        ) as speed_rubric
    from statused
    left join track_rubrics on track_rubrics.track_number = statused.track_number
)

select
    'resume_agent' as agent,
    source_file,
    file_fingerprint,
    record_no,
    run_id,
    item_id,
    query_id,
    round_label,
    round_room,
    round_repeat,
    track_label as track,
    category,
    query_text,
    status,
    error_message,
    partial_phrase,
    left(judged_message, 200) as reply_excerpt,
    raw_json_is_valid,
    used_response_fallback,
    null::bigint as check_count,
    null::bigint as check_passed,
    null::double as pass_ratio,
    heuristic_score,
    llm_score,
    {{ item_score_columns() }},
    execution_count,
    worker_count
from scored
