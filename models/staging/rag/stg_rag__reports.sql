{{ config(tags=['rag']) }}

with source as (
    {{ rag_read_json_documents(var('rag_files')['judge_reports'], {
        'dataset_version': 'varchar',
        'timestamp': 'varchar',
        'total_questions': 'bigint',
        'passed_questions': 'bigint',
        'pass_rate': 'double',
        'overall_score': 'double',
        'failed_questions': 'varchar[]',
        'dataset_file': 'varchar',
        'judge_model': 'varchar',
        'judge_provider': 'varchar',
        'demo': 'boolean',
        'complete': 'boolean',
        'stopped': 'varchar',
        'results': 'json[]',
    }) }}
),

renamed as (
    select
        source_file as report_file,
        nullif(trim(dataset_version), '') as dataset_version,
        -- Written by this project's judge runner (not by the team's): the dataset it read.
        nullif(regexp_extract(trim(dataset_file), '[^/\\]+$'), '') as stated_dataset_file,
        try_cast(nullif(trim("timestamp"), '') as timestamp) as report_timestamp,
        nullif(trim("timestamp"), '') as report_timestamp_text,
        try_strptime(
            regexp_extract(source_file, '(\d{8}_\d{6})', 1), '%Y%m%d_%H%M%S'
        ) as file_name_timestamp,
        coalesce(len(results), 0) as results_in_file,
        total_questions as stored_total_questions,
        passed_questions as stored_passed_questions,
        pass_rate as stored_pass_rate,
        overall_score as stored_overall_score,
        failed_questions as stored_failed_questions,
        -- Written by this project's judge runner: which judge, and whether it was the demo one.
        nullif(trim(judge_model), '') as judge_model,
        nullif(trim(judge_provider), '') as judge_provider,
        coalesce(demo, false) as is_demo_judge,
        -- Written by this project's judge runner: false when a question got no verdict for a
        -- reason of the run (judge error, stopped, interrupted); reports without it are whole.
        coalesce(complete, true) as is_complete,
        nullif(trim(stopped), '') as stopped_reason
    from source
)

select * from renamed
