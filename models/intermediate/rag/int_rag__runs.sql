{{ config(tags=['rag']) }}

with reports as (
    select * from {{ ref('stg_rag__reports') }}
),

results as (
    select * from {{ ref('stg_rag__judgements') }}
),

questions as (
    select * from {{ ref('stg_rag__questions') }}
),

datasets as (
    select * from {{ ref('stg_rag__datasets') }}
),

-- How many of a report's results each dataset file knows, by id and by id + question text.
-- A report picks the dataset file it names (judge runner), else the one knowing most of it.
dataset_matches as (
    select
        results.report_file,
        questions.dataset_file,
        count(*) as matched_ids,
        count(*) filter (where results.question_text = questions.question_text) as matched_texts
    from results
    inner join questions
        on results.question_id = questions.question_id
    group by results.report_file, questions.dataset_file
),

ranked_datasets as (
    select
        dataset_matches.report_file,
        dataset_matches.dataset_file,
        dataset_matches.matched_ids,
        row_number() over (
            partition by dataset_matches.report_file
            order by
                (dataset_matches.dataset_file is not distinct from reports.stated_dataset_file) desc,
                dataset_matches.matched_ids desc,
                dataset_matches.matched_texts desc,
                (datasets.dataset_version is not distinct from reports.dataset_version) desc,
                dataset_matches.dataset_file desc
        ) as dataset_rank
    from dataset_matches
    inner join reports
        on dataset_matches.report_file = reports.report_file
    inner join datasets
        on dataset_matches.dataset_file = datasets.dataset_file
),

best_dataset as (
    select report_file, dataset_file, matched_ids
    from ranked_datasets
    where dataset_rank = 1
),

runs as (
    select
        reports.report_file as run_id,
        reports.report_file,
        reports.dataset_version,
        coalesce(reports.report_timestamp, reports.file_name_timestamp) as run_at,
        reports.report_timestamp,
        reports.file_name_timestamp,
        best_dataset.dataset_file,
        coalesce(best_dataset.matched_ids, 0) as results_in_dataset,
        reports.results_in_file,
        reports.stored_total_questions,
        reports.stored_passed_questions,
        reports.stored_pass_rate,
        reports.stored_overall_score,
        reports.judge_model,
        reports.judge_provider,
        reports.is_demo_judge,
        reports.is_complete,
        reports.stopped_reason
    from reports
    left join best_dataset
        on reports.report_file = best_dataset.report_file
),

sequenced as (
    select
        *,
        row_number() over (
            partition by coalesce(dataset_file, '')
            order by run_at nulls first, report_file
        ) as run_seq
    from runs
),

with_previous_seq as (
    select
        *,
        -- an incomplete run is never the one a later run is compared with
        max(case when is_complete then run_seq end) over (
            partition by coalesce(dataset_file, '')
            order by run_seq
            rows between unbounded preceding and 1 preceding
        ) as previous_run_seq
    from sequenced
),

final as (
    select
        {{ star_except(['previous_run_seq'], 'this_run') }},
        previous_run.run_id as previous_run_id
    from with_previous_seq as this_run
    left join sequenced as previous_run
        on coalesce(previous_run.dataset_file, '') = coalesce(this_run.dataset_file, '')
        and previous_run.run_seq = this_run.previous_run_seq
)

select * from final
