{{ config(tags=['rag']) }}

-- Each dataset file against the question plan of seed 003 §2: totals, categories and
-- subcategories (§2.1: int_rag__category_coverage), course tiers and courses (§2.2:
-- int_rag__course_coverage).

with unioned as (
    -- both have the same columns, typed, in the same order
    select * from {{ ref('int_rag__category_coverage') }}
    union all
    select * from {{ ref('int_rag__course_coverage') }}
),

final as (
    select
        dataset_file,
        coverage_level,
        -- the plan's order in reports: the total, categories, subcategories, tiers, courses
        case coverage_level
            when 'total' then 1
            when 'category' then 2
            when 'subcategory' then 3
            when 'course_tier' then 4
            else 5
        end as level_order,
        category,
        coverage_item,
        label_ko,
        sort_order,
        target_questions,
        actual_questions,
        cast(actual_questions - target_questions as int) as gap,
        actual_questions >= target_questions as target_met
    from unioned
)

select * from final
