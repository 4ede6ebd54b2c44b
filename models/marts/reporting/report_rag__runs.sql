{{ config(materialized='view', tags=['rag']) }}
-- The RAG report's counts beside rag_run_scores: per judge run, the questions that failed
-- (its "실패 문항"), the success criteria it could not measure, and its verdict changes since
-- the previous run of its dataset in each direction (rag_verdict_changes).

with runs as (
    select * from {{ ref('rag_run_scores') }}
),

changes as (
    select
        run_id,
        count(*) as verdict_changes,
        count(case when change_direction = 'fail_to_pass' then 1 end) as fail_to_pass_changes,
        count(case when change_direction = 'pass_to_fail' then 1 end) as pass_to_fail_changes
    from {{ ref('rag_verdict_changes') }}
    group by run_id
)

select
    runs.run_id,
    runs.questions - runs.passed_questions as failed_questions,
    runs.criteria_total - runs.criteria_measured as criteria_unmeasured,
    coalesce(changes.verdict_changes, 0) as verdict_changes,
    coalesce(changes.fail_to_pass_changes, 0) as fail_to_pass_changes,
    coalesce(changes.pass_to_fail_changes, 0) as pass_to_fail_changes
from runs
left join changes
    on changes.run_id = runs.run_id
