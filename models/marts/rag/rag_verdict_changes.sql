{{ config(tags=['rag']) }}

-- Questions whose pass/fail verdict differs between a run and the previous run of the same
-- dataset (runs ordered by time), in both directions.

with judgements as (
    select * from {{ ref('rag_judgements') }}
),

runs as (
    select * from {{ ref('int_rag__runs') }}
),

paired as (
    select
        runs.dataset_file,
        runs.run_id,
        runs.previous_run_id,
        current_run.run_at,
        previous_run.run_at as previous_run_at,
        current_run.question_id,
        current_run.category,
        current_run.subcategory,
        current_run.question_text,
        previous_run.passed as previous_passed,
        current_run.passed,
        previous_run.overall_score as previous_overall_score,
        current_run.overall_score,
        previous_run.judge_status as previous_judge_status,
        current_run.judge_status,
        previous_run.reasoning as previous_reasoning,
        current_run.reasoning
    from runs
    inner join judgements as current_run
        on runs.run_id = current_run.run_id
    inner join judgements as previous_run
        on runs.previous_run_id = previous_run.run_id
        and current_run.question_id = previous_run.question_id
    where runs.dataset_file is not null
),

final as (
    select
        dataset_file,
        run_id,
        previous_run_id,
        run_at,
        previous_run_at,
        question_id,
        category,
        subcategory,
        question_text,
        previous_passed,
        passed,
        case when passed then 'fail_to_pass' else 'pass_to_fail' end as change_direction,
        previous_overall_score,
        overall_score,
        previous_judge_status,
        judge_status,
        previous_reasoning,
        reasoning
    from paired
    where previous_passed != passed
)

select * from final
