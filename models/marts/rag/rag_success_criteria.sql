{{ config(tags=['rag']) }}

with criteria as (
    select * from {{ ref('int_rag__run_criteria') }}
),

final as (
    select
        run_id,
        criterion_id,
        sort_order,
        label_ko,
        category,
        metric,
        target,
        measured_value,
        numerator,
        denominator,
        judge_errors,
        met,
        note
    from criteria
)

select * from final
