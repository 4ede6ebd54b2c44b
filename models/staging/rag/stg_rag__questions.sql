{{ config(tags=['rag']) }}

{#- Fields of one dataset question (seed 003 §4.2); absent keys read as null. -#}
{%- set question_shape -%}
{
    "id": "VARCHAR",
    "category": "VARCHAR",
    "subcategory": "VARCHAR",
    "question": "VARCHAR",
    "expected_filters": {"doc_type": ["VARCHAR"], "course": ["VARCHAR"]},
    "expected_topics": ["VARCHAR"],
    "ground_truth": {
        "answer_keywords": ["VARCHAR"],
        "should_have_context": "BOOLEAN",
        "min_docs_required": "INTEGER",
        "expected_behavior": "VARCHAR"
    },
    "evaluation": {
        "requires_multi_doc": "BOOLEAN",
        "cross_course": "BOOLEAN",
        "reasoning_type": "VARCHAR"
    },
    "metadata": {
        "difficulty": "VARCHAR",
        "requires_reasoning": "BOOLEAN",
        "coverage": ["VARCHAR"],
        "hallucination_risk": "VARCHAR",
        "note": "VARCHAR",
        "added_in_version": "VARCHAR"
    }
}
{%- endset -%}

with source as (
    {{ rag_read_json_documents(var('rag_files')['datasets'], {'version': 'varchar', 'questions': 'json[]'}) }}
),

questions as (
    select
        source_file,
        version,
        unnest(questions) as question_json,
        generate_subscripts(questions, 1) as question_ordinal
    from source
),

parsed as (
    select
        source_file,
        version,
        question_ordinal,
        json_transform(question_json, '{{ question_shape | replace("\n", " ") }}') as q
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
        coalesce(q.expected_topics, []) as expected_topics,
        coalesce(q.ground_truth.answer_keywords, []) as answer_keywords,
        q.ground_truth.should_have_context as should_have_context,
        q.ground_truth.min_docs_required as min_docs_required,
        nullif(trim(q.ground_truth.expected_behavior), '') as expected_behavior,
        q.evaluation.requires_multi_doc as requires_multi_doc,
        q.evaluation.cross_course as cross_course,
        nullif(trim(q.evaluation.reasoning_type), '') as reasoning_type,
        nullif(lower(trim(q.metadata.difficulty)), '') as difficulty,
        q.metadata.requires_reasoning as requires_reasoning,
        coalesce(q.metadata.coverage, []) as coverage,
        nullif(trim(q.metadata.hallucination_risk), '') as hallucination_risk,
        nullif(trim(q.metadata.note), '') as note,
        nullif(trim(q.metadata.added_in_version), '') as added_in_version
    from parsed
)

select * from renamed
