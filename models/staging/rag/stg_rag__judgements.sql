{{ config(tags=['rag']) }}

{#- Fields of one result in a judge report (evaluation_report*.json); absent keys read as null. -#}
{%- set result_shape -%}
{
    "question_id": "VARCHAR",
    "question": "VARCHAR",
    "category": "VARCHAR",
    "subcategory": "VARCHAR",
    "answer": "VARCHAR",
    "retrieved_docs_count": "BIGINT",
    "retrieval_time_ms": "DOUBLE",
    "filter_applied": "BOOLEAN",
    "passed": "BOOLEAN",
    "error": "VARCHAR",
    "judge": {
        "faithfulness": "INTEGER",
        "relevance": "INTEGER",
        "completeness": "INTEGER",
        "hallucination_detected": "BOOLEAN",
        "behavior_correct": "BOOLEAN",
        "overall_score": "DOUBLE",
        "reasoning": "VARCHAR"
    }
}
{%- endset -%}

with source as (
    {{ rag_read_json_documents(var('rag_files')['judge_reports'], {'results': 'json[]'}) }}
),

results as (
    select
        source_file,
        unnest(results) as result_json,
        generate_subscripts(results, 1) as result_ordinal
    from source
),

parsed as (
    select
        source_file,
        result_ordinal,
        json_transform(result_json, '{{ result_shape | replace("\n", " ") }}') as r,
        json_type(result_json, '$.judge') = 'OBJECT' as has_judge
    from results
),

renamed as (
    select
        source_file as report_file,
        source_file || ':' || result_ordinal as result_key,
        result_ordinal,
        nullif(trim(r.question_id), '') as question_id,
        nullif(trim(r.question), '') as question_text,
        nullif(trim(r.category), '') as category,
        nullif(trim(r.subcategory), '') as subcategory,
        r.answer as answer,
        length(r.answer) as answer_length,
        r.retrieved_docs_count as retrieved_docs_count,
        r.retrieval_time_ms as retrieval_time_ms,
        r.filter_applied as filter_applied,
        nullif(trim(r.error), '') as error,
        r.passed as stored_passed,
        coalesce(has_judge, false) as has_judge,
        r.judge.faithfulness as faithfulness,
        r.judge.relevance as relevance,
        r.judge.completeness as completeness,
        r.judge.hallucination_detected as hallucination_detected,
        r.judge.behavior_correct as behavior_correct,
        r.judge.overall_score as stored_overall_score,
        nullif(trim(r.judge.reasoning), '') as reasoning
    from parsed
)

select * from renamed
