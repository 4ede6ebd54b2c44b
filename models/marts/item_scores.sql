{{ config_incremental_by_file() }}
with items as (
    select * from {{ ref('int_scoring__items') }}
    where {{ changed_files_only() }}
)

select
    agent,
    source_file,
    file_fingerprint,
    record_no,
    run_id,
    item_id,
    query_id,
    round_label,
    round_room,
    round_repeat,
    track,
    category,
    query_text,
    status,
    error_message,
    partial_phrase,
    reply_excerpt,
    raw_json_is_valid,
    used_response_fallback,
    check_count,
    check_passed,
    pass_ratio,
    heuristic_score,
    llm_score,
    score_source,
    intent_score,
    accuracy_score,
    stability_score,
    response_time_sec,
    speed_rubric,
    speed_points
from items
