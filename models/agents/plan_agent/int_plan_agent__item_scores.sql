{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- One row per export row of the plan agent with its status and 0-5 scores (SCORING §2.3):
-- the checklist pass ratio is the rule score.

with results as (
    select *, {{ file_key('source_file') }} as file_key
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
),

check_counts as (
    -- how many checks each 기대결과 text asks for
    select expected_result, count(*) as check_count
    from ({{ checklist_checks(agent_rows('plan_agent', ref('int_exports__results'))) }}) as checks
    group by expected_result
),

passed_checks as (
    -- how many of its checks each row passed (none: no row here), by file_key()
    -- (macros/file_key.sql), not the file's name: an integer join key (1M rows: 6.0 -> 3.4 s
    -- of CPU). Reading passed checks only, DuckDB expects a fifth of the check rows and
    -- builds the join's hash table from these counts, not from the wide rows (1M rows:
    -- 6.6 -> 4.2 s of CPU; docs/builds.md). count_if keeps the mart's type (hugeint)
    select {{ file_key('source_file') }} as file_key, record_no, count_if(passed) as check_passed
    from {{ ref('int_plan_agent__check_results') }}
    where passed and {{ new_file_versions('source_file', "agent = 'plan_agent'") }}
    group by all
),

scored as (
    select
        results.*,
        coalesce(check_counts.check_count, 0) as check_count,
        coalesce(passed_checks.check_passed, 0) as check_passed,
        coalesce(passed_checks.check_passed, 0) / nullif(check_counts.check_count, 0)
            as pass_ratio,
        {{ failure_message('results') }} as error_message,
        {{ checklist_reply_status('results', 'check_counts.check_count') }} as status,
        {{ pass_ratio_points(
            'coalesce(passed_checks.check_passed, 0) / nullif(check_counts.check_count, 0)'
        ) }} as heuristic_score
    from results
    left join check_counts on check_counts.expected_result = results.expected_result
    left join passed_checks
        on passed_checks.file_key = results.file_key
        and passed_checks.record_no = results.record_no
)

{{ item_scores_from('scored', 'plan_agent', columns={
    'check_count': 'check_count',
    'check_passed': 'check_passed',
    'pass_ratio': 'pass_ratio',
}) }}
