{{ config(tags=['rag']) }}

with source as (
    {{ rag_read_json_documents(var('rag_files')['datasets'], {
        'version': 'varchar',
        'created_at': 'varchar',
        'updated_at': 'varchar',
        'description': 'varchar',
        'statistics': 'struct(total_questions bigint)',
        'questions': 'json[]',
    }) }}
),

renamed as (
    select
        source_file as dataset_file,
        nullif(trim(version), '') as dataset_version,
        nullif(trim(created_at), '') as created_at,
        nullif(trim(updated_at), '') as updated_at,
        nullif(trim(description), '') as description,
        statistics.total_questions as stated_total_questions,
        coalesce(len(questions), 0) as questions_in_file
    from source
)

select * from renamed
