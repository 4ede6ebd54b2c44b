{{ config(tags=['rag']) }}

{#- Fields of one result in a judge report (evaluation_report*.json); absent keys read as null. -#}
{%- set result_shape = {
    "question_id": "text",
    "question": "text",
    "category": "text",
    "subcategory": "text",
    "answer": "text",
    "retrieved_docs_count": "bigint",
    "retrieval_time_ms": "double",
    "filter_applied": "boolean",
    "passed": "boolean",
    "error": "text",
    "judge": {
        "faithfulness": "int",
        "relevance": "int",
        "completeness": "int",
        "hallucination_detected": "boolean",
        "behavior_correct": "boolean",
        "overall_score": "double",
        "reasoning": "text"
    }
} -%}

with documents as (
    select source_file, document
    from {{ ref('base_rag__documents') }}
    where kind = 'judge_reports' and problem is null
),

reports as (
    select source_file, {{ json_fields('document', {'results': ['json']}) }} as report
    from documents
),

results as (
    select
        source_file,
        {{ unnest_numbered('report.results', 'result_ordinal', 'result_json') }}
    from reports
),

parsed as (
    select
        source_file,
        result_ordinal,
        {{ json_fields('result_json', result_shape) }} as r,
        {{ json_type_at('result_json', '$.judge') }} = 'OBJECT' as has_judge
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
