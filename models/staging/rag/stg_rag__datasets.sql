{{ config(tags=['rag']) }}

with documents as (
    select source_file, document
    from {{ ref('base_rag__documents') }}
    where kind = 'datasets' and problem is null
),

parsed as (
    select
        source_file,
        {{ json_fields('document', {
            'version': 'text',
            'created_at': 'text',
            'updated_at': 'text',
            'description': 'text',
            'statistics': {'total_questions': 'bigint'},
            'questions': ['json'],
        }) }} as d
    from documents
),

renamed as (
    select
        source_file as dataset_file,
        nullif(trim(d.version), '') as dataset_version,
        nullif(trim(d.created_at), '') as created_at,
        nullif(trim(d.updated_at), '') as updated_at,
        nullif(trim(d.description), '') as description,
        d.statistics.total_questions as stated_total_questions,
        coalesce({{ list_size('d.questions') }}, 0) as questions_in_file
    from parsed
)

select * from renamed
