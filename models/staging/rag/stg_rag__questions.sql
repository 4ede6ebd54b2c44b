{{ config(tags=['rag']) }}

{#- Fields of one dataset question (seed 003 §4.2); absent keys read as null. -#}
{%- set question_shape = {
    "id": "text",
    "category": "text",
    "subcategory": "text",
    "question": "text",
    "expected_filters": {"doc_type": ["text"], "course": ["text"]},
    "expected_topics": ["text"],
    "ground_truth": {
        "answer_keywords": ["text"],
        "should_have_context": "boolean",
        "min_docs_required": "int",
        "expected_behavior": "text"
    },
    "evaluation": {
        "requires_multi_doc": "boolean",
        "cross_course": "boolean",
        "reasoning_type": "text"
    },
    "metadata": {
        "difficulty": "text",
        "requires_reasoning": "boolean",
        "coverage": ["text"],
        "hallucination_risk": "text",
        "note": "text",
        "added_in_version": "text"
    }
} -%}

with documents as (
    select source_file, document
    from {{ ref('base_rag__documents') }}
    where kind = 'datasets' and problem is null
),

datasets as (
    select
        source_file,
        {{ json_fields('document', {'version': 'text', 'questions': ['json']}) }} as d
    from documents
),

questions as (
    select
        source_file,
        d.version as version,
        {{ unnest_numbered('d.questions', 'question_ordinal', 'question_json') }}
    from datasets
),

parsed as (
    select
        source_file,
        version,
        question_ordinal,
        {{ json_fields('question_json', question_shape) }} as q
    from questions
),

renamed as (
    select
        source_file as dataset_file,
        nullif(trim(version), '') as dataset_version,
        source_file || ':' || coalesce(nullif(trim(q.id), ''), '#' || question_ordinal) as question_key,
        question_ordinal,
        nullif(trim(q.id), '') as question_id,
        nullif(trim(q.category), '') as category,
        nullif(trim(q.subcategory), '') as subcategory,
        nullif(trim(q.question), '') as question_text,
        q.expected_filters.doc_type as expected_doc_types,
        q.expected_filters.course as expected_courses,
        coalesce(q.expected_topics, {{ sql_list([]) }}) as expected_topics,
        coalesce(q.ground_truth.answer_keywords, {{ sql_list([]) }}) as answer_keywords,
        q.ground_truth.should_have_context as should_have_context,
        q.ground_truth.min_docs_required as min_docs_required,
        nullif(trim(q.ground_truth.expected_behavior), '') as expected_behavior,
        q.evaluation.requires_multi_doc as requires_multi_doc,
        q.evaluation.cross_course as cross_course,
        nullif(trim(q.evaluation.reasoning_type), '') as reasoning_type,
        nullif(lower(trim(q.metadata.difficulty)), '') as difficulty,
        q.metadata.requires_reasoning as requires_reasoning,
        coalesce(q.metadata.coverage, {{ sql_list([]) }}) as coverage,
        nullif(trim(q.metadata.hallucination_risk), '') as hallucination_risk,
        nullif(trim(q.metadata.note), '') as note,
        nullif(trim(q.metadata.added_in_version), '') as added_in_version
    from parsed
)

select * from renamed
