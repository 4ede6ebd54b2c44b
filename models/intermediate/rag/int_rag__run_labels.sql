{{ config(tags=['rag']) }}

-- The human hallucination label that applies to each judged answer: a label naming the
-- report wins over a label for every report (blank report_file).

with labels as (
    select * from {{ ref('stg_rag__hallucination_labels') }}
    where problem is null
),

runs as (
    select * from {{ ref('int_rag__runs') }}
),

candidates as (
    select
        runs.run_id,
        labels.question_id,
        labels.is_hallucination,
        labels.labels_file,
        labels.row_no,
        labels.report_file is not null as is_run_specific
    from runs
    inner join labels
        on labels.report_file is null
        or labels.report_file = runs.report_file
),

ranked as (
    select
        *,
        row_number() over (
            partition by run_id, question_id
            order by is_run_specific desc, labels_file desc, row_no desc
        ) as label_rank
    from candidates
),

chosen as (
    select
        run_id,
        question_id,
        is_hallucination as human_hallucination,
        labels_file || ':' || row_no as label_source
    from ranked
    where label_rank = 1
)

select * from chosen
