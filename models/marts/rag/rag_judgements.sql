{{ config(tags=['rag']) }}

with judgements as (
    select * from {{ ref('int_rag__judgements') }}
),

categories as (
    select category, sort_order from {{ ref('rag_categories') }}
),

compared as (
    select
        judgements.*,
        categories.sort_order as category_order,
        passed is not distinct from stored_passed as passed_matches_stored,
        case
            when overall_score is null and stored_overall_score is null then true
            when overall_score is null or stored_overall_score is null then false
            else abs(overall_score - stored_overall_score) <= stored_score_tolerance
        end as overall_score_matches_stored
    from judgements
    left join categories on categories.category = judgements.category
),

final as (
    select
        run_id,
        report_file,
        run_at,
        run_seq,
        dataset_file,
        result_ordinal,
        question_id,
        in_dataset,
        question_text,
        category,
        subcategory,
        reported_category,
        reported_subcategory,
        expected_behavior,
        difficulty,
        course_areas,
        judge_status,
        error,
        faithfulness,
        relevance,
        completeness,
        hallucination_detected,
        behavior_correct,
        overall_score,
        stored_overall_score,
        overall_score_matches_stored,
        passed,
        stored_passed,
        passed_matches_stored,
        human_hallucination,
        label_source,
        reasoning,
        answer_length,
        retrieved_docs_count,
        retrieval_time_ms,
        filter_applied,
        category_order
    from compared
)

select * from final
