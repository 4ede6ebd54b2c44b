{{ config_incremental_by_file() }}
-- One row per export row of the plan agent with its status and 0-5 scores (SCORING §2.3).

with results as (
    select * from {{ ref('stg_plan_agent__results') }}
    where {{ changed_files_only() }}
),

check_totals as (
    select
        source_file,
        record_no,
        count(*) as check_count,
        count_if(passed) as check_passed
    from {{ ref('int_plan_agent__check_results') }}
    where {{ changed_files_only() }}
    group by all
),

labelled as (
    select
        results.*,
        coalesce(check_totals.check_count, 0) as check_count,
        coalesce(check_totals.check_passed, 0) as check_passed,
        {{ failure_message('results') }} as error_message,
        {{ status_label(
            error_when=failure_message('results') ~ ' is not null',
            empty_when="coalesce(trim(results.assistant_message), '') = ''"
                ~ " and coalesce(len(results.ui_values), 0) = 0",
            no_checks_when='coalesce(check_totals.check_count, 0) = 0'
        ) }} as status
    from results
    left join check_totals
        on check_totals.source_file = results.source_file
        and check_totals.record_no = results.record_no
),

scored as (
    select
        *,
        check_passed / nullif(check_count, 0) as pass_ratio,
        {{ pass_ratio_points('check_passed / nullif(check_count, 0)') }} as heuristic_score,
        case when {{ llm_score_usable('llm_score_raw', 'llm_status') }} then llm_score_raw end
            as llm_score,
        'single' as speed_rubric
    from labelled
)

select
    'plan_agent' as agent,
    source_file,
    file_fingerprint,
    record_no,
    run_id,
    item_id,
    query_id,
    round_label,
    round_room,
    round_repeat,
    null::varchar as track,
    category,
    query_text,
    status,
    error_message,
    null::varchar as partial_phrase,
    left(assistant_message, 200) as reply_excerpt,
    raw_json_is_valid,
    false as used_response_fallback,
    check_count,
    check_passed,
    pass_ratio,
    heuristic_score,
    llm_score,
    {{ item_score_columns() }},
    execution_count,
    worker_count
from scored
