{{ config(materialized='view') }}
-- The export rows every agent scores: those no row rule rejected, typed (SCORING §0-§1).
-- stg_exports__rows already made missing values null and parsed each Raw JSON cell once;
-- this view only casts. A view, so rows are typed when an agent's model reads its new files
-- and never stored twice. Agents read it through agent_rows('<agent>').

with source as (
    -- no row rule rejected it (a repeated Item ID among them)
    select *
    from {{ ref('stg_exports__rows') }}
    where reject_code is null
),

status_classes as (
    -- LLM 상태 read by seeds/llm_statuses.csv, once per distinct value: the longest
    -- matching pattern wins (an exact match on a tie); a value no pattern matches is unknown
    select
        statuses.llm_status,
        patterns.meaning,
        row_number() over (
            partition by statuses.llm_status
            order by length(patterns.pattern) desc, patterns.match = 'exact' desc
        ) as preference
    from (
        -- from the model, not `source`: a CTE read twice is kept whole, and an agent reading
        -- one new file would pay for every stored row's columns
        select distinct llm_status
        from {{ ref('stg_exports__rows') }}
        where reject_code is null and llm_status is not null
    ) as statuses
    left join {{ ref('llm_statuses') }} as patterns
        on lower(trim(statuses.llm_status)) = lower(patterns.pattern)
        or (patterns.match = 'prefix'
            and left(lower(trim(statuses.llm_status)), length(patterns.pattern))
                = lower(patterns.pattern))
),

timed as (
    select
        source.*,
        {%- set factor = agent_seconds_factor() | trim %}
        {{ json_seconds('response_time_json') }}{{ ' * ' ~ factor if factor != '1' }}
            as response_time_raw,
        {{ round_room('source.round_label') }} as round_room,
        {{ round_repeat('source.round_label') }} as round_repeat,
        case
            when source.llm_status is null then 'not_evaluated'
            else coalesce(status_classes.meaning, 'unknown')
        end as llm_status_class
    from source
    left join status_classes
        on status_classes.llm_status = source.llm_status and status_classes.preference = 1
),

judged as (
    select *, {{ response_time_problem() }} as response_time_problem
    from timed
)

select
    agent,
    source_file,
    file_fingerprint,
    record_no,
    run_id,
    item_id,
    try_cast(ordinal as integer) as ordinal,
    query_id,
    query_text,
    expected_result,
    category,
    round_room || '/' || round_repeat as round_label,
    round_room,
    round_repeat,
    try_cast(executed_at as timestamp) as executed_at,
    track,
    -- `Track 3`, `3`, `T3`, `track3` all mean track 3; anything else stays unknown
    try_cast({{ regex_extract('track', "'^(?i)(?:track|t)?\\s*([0-9]+)$'", 1) }} as integer)
        as track_number,
    response_text,
    error_text,
    llm_status,
    llm_status_class,
    llm_model,
    prompt_version,
    try_cast(llm_score as double) as llm_score_raw,
    try_cast(llm_intent_score as double) as llm_intent_score_raw,
    try_cast(llm_accuracy_score as double) as llm_accuracy_score_raw,
    try_cast(llm_consistency_score as double) as llm_consistency_score_raw,
    try_cast(llm_speed_single_score as double) as llm_speed_single_score_raw,
    try_cast(llm_speed_multi_score as double) as llm_speed_multi_score_raw,
    try_cast(llm_stability_score as double) as llm_stability_score_raw,
    llm_comment,
    raw_json_is_missing,
    raw_json_is_valid,
    raw_json_chars,
    raw_json_problem,
    assistant_message,
    ui_values,
    response_time_raw,
    case when response_time_problem is null then response_time_raw end as response_time_sec,
    response_time_problem,
    {{ json_text('raw_error_json') }} as raw_error,
    execution_count,
    worker_count,
    raw_reply,
    extra_columns
from judged
