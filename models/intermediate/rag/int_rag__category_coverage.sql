{{ config(tags=['rag']) }}

-- rag_dataset_coverage's rows of the question plan (seed 003 §2.1) for each dataset file:
-- its total, its categories and its subcategories, with their targets.

with questions as (
    select * from {{ ref('stg_rag__questions') }}
),

datasets as (
    select * from {{ ref('stg_rag__datasets') }}
),

plan as (
    select * from {{ ref('rag_question_plan') }}
),

categories as (
    select * from {{ ref('rag_categories') }}
),

category_targets as (
    select
        category,
        sum(target_questions) as target_questions
    from plan
    group by category
),

plan_total as (
    select sum(target_questions) as target_questions from plan
),

total_rows as (
    select
        datasets.dataset_file,
        'total' as coverage_level,
        null as category,
        'total' as coverage_item,
        '전체' as label_ko,
        0 as sort_order,
        plan_total.target_questions,
        count(questions.question_key) as actual_questions
    from datasets
    cross join plan_total
    left join questions
        on datasets.dataset_file = questions.dataset_file
    group by datasets.dataset_file, plan_total.target_questions
),

category_rows as (
    select
        datasets.dataset_file,
        'category' as coverage_level,
        categories.category,
        categories.category as coverage_item,
        categories.label_ko,
        categories.sort_order,
        category_targets.target_questions,
        count(questions.question_key) as actual_questions
    from datasets
    cross join categories
    left join category_targets
        on categories.category = category_targets.category
    left join questions
        on datasets.dataset_file = questions.dataset_file
        and categories.category = questions.category
    group by all
),

subcategory_rows as (
    select
        datasets.dataset_file,
        'subcategory' as coverage_level,
        plan.category,
        plan.subcategory as coverage_item,
        plan.description_ko as label_ko,
        plan.sort_order,
        plan.target_questions,
        count(questions.question_key) as actual_questions
    from datasets
    cross join plan
    left join questions
        on datasets.dataset_file = questions.dataset_file
        and plan.category = questions.category
        and plan.subcategory = questions.subcategory
    group by all
),

unioned as (
    select * from total_rows
    union all
    select * from category_rows
    union all
    select * from subcategory_rows
)

select
    dataset_file,
    coverage_level,
    cast(category as string) as category,
    coverage_item,
    label_ko,
    cast(sort_order as int) as sort_order,
    cast(target_questions as int) as target_questions,
    cast(actual_questions as int) as actual_questions
from unioned
