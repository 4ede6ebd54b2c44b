{{ config(tags=['rag']) }}

with documents as (
    select source_file, document
    from {{ ref('base_rag__documents') }}
    where kind = 'judge_reports' and problem is null
),

parsed as (
    select
        source_file,
        {{ json_fields('document', {
            'dataset_version': 'text',
            'timestamp': 'text',
            'total_questions': 'bigint',
            'passed_questions': 'bigint',
            'pass_rate': 'double',
            'overall_score': 'double',
            'failed_questions': ['text'],
            'dataset_file': 'text',
            'judge_model': 'text',
            'judge_provider': 'text',
            'demo': 'boolean',
            'complete': 'boolean',
            'stopped': 'text',
            'results': ['json'],
        }) }} as r
    from documents
),

renamed as (
    select
        source_file as report_file,
        nullif(trim(r.dataset_version), '') as dataset_version,
        -- Written by this project's judge runner (not by the team's): the dataset it read.
        nullif(regexp_extract(trim(r.dataset_file), '[^/\\]+$', 0), '') as stated_dataset_file,
        try_cast(nullif(trim(r.timestamp), '') as timestamp) as report_timestamp,
        nullif(trim(r.timestamp), '') as report_timestamp_text,
        {{ timestamp_from("regexp_extract(source_file, '(\\d{8}_\\d{6})', 1)", '%Y%m%d_%H%M%S') }}
            as file_name_timestamp,
        coalesce({{ list_size('r.results') }}, 0) as results_in_file,
        r.total_questions as stored_total_questions,
        r.passed_questions as stored_passed_questions,
        r.pass_rate as stored_pass_rate,
        r.overall_score as stored_overall_score,
        r.failed_questions as stored_failed_questions,
        -- Written by this project's judge runner: which judge, and whether it was the demo one.
        nullif(trim(r.judge_model), '') as judge_model,
        nullif(trim(r.judge_provider), '') as judge_provider,
        coalesce(r.demo, false) as is_demo_judge,
        -- Written by this project's judge runner: false when a question got no verdict for a
        -- reason of the run (judge error, stopped, interrupted); reports without it are whole.
        coalesce(r.complete, true) as is_complete,
        nullif(trim(r.stopped), '') as stopped_reason
    from parsed
)

select * from renamed
