{{ config(tags=['rag']) }}

-- Each dataset file against the question plan of seed 003 §2: totals, categories and
-- subcategories (§2.1), course tiers and courses (§2.2).

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

course_plan as (
    select * from {{ ref('rag_course_plan') }}
),

tiers as (
    select * from {{ ref('rag_course_tiers') }}
),

aliases as (
    select * from {{ ref('rag_course_aliases') }}
),

-- Planned courses a question touches, through its course filter and coverage labels.
question_courses as (
    select distinct
        questions.dataset_file,
        questions.question_key,
        aliases.course
    from questions,
        unnest(list_concat(coalesce(questions.expected_courses, []), questions.coverage))
            as labels(course_label)
    inner join aliases
        on labels.course_label = aliases.alias
),

category_targets as (
    select
        category,
        sum(target_questions) as target_questions
    from plan
    group by category
),

total_rows as (
    select
        datasets.dataset_file,
        'total' as coverage_level,
        null as category,
        'total' as coverage_item,
        '전체' as label_ko,
        0 as sort_order,
        (select sum(target_questions) from plan) as target_questions,
        count(questions.question_key) as actual_questions
    from datasets
    left join questions
        on datasets.dataset_file = questions.dataset_file
    group by datasets.dataset_file
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

course_rows as (
    select
        datasets.dataset_file,
        'course' as coverage_level,
        null as category,
        course_plan.course as coverage_item,
        'Tier ' || course_plan.tier || ' (문서 ' || course_plan.doc_count_note || '개)' as label_ko,
        course_plan.sort_order,
        course_plan.target_questions,
        count(question_courses.question_key) as actual_questions
    from datasets
    cross join course_plan
    left join question_courses
        on datasets.dataset_file = question_courses.dataset_file
        and course_plan.course = question_courses.course
    group by all
),

tier_rows as (
    select
        datasets.dataset_file,
        'course_tier' as coverage_level,
        null as category,
        'tier_' || tiers.tier as coverage_item,
        tiers.label_ko,
        tiers.tier as sort_order,
        (
            select sum(course_plan.target_questions)
            from course_plan
            where course_plan.tier = tiers.tier
        ) as target_questions,
        count(distinct question_courses.question_key) as actual_questions
    from datasets
    cross join tiers
    left join course_plan
        on tiers.tier = course_plan.tier
    left join question_courses
        on datasets.dataset_file = question_courses.dataset_file
        and course_plan.course = question_courses.course
    group by all
),

-- Questions that name no planned course: shown, not counted against any target.
unplanned_rows as (
    select
        datasets.dataset_file,
        'course_tier' as coverage_level,
        null as category,
        'no_planned_course' as coverage_item,
        '계획 과정 외' as label_ko,
        99 as sort_order,
        null as target_questions,
        count(questions.question_key) as actual_questions
    from datasets
    left join questions
        on datasets.dataset_file = questions.dataset_file
        and questions.question_key not in (select question_key from question_courses)
    group by all
),

unioned as (
    select * from total_rows
    union all by name
    select * from category_rows
    union all by name
    select * from subcategory_rows
    union all by name
    select * from tier_rows
    union all by name
    select * from unplanned_rows
    union all by name
    select * from course_rows
),

final as (
    select
        dataset_file,
        coverage_level,
        category::varchar as category,
        coverage_item,
        label_ko,
        sort_order::integer as sort_order,
        target_questions::integer as target_questions,
        actual_questions::integer as actual_questions,
        (actual_questions - target_questions)::integer as gap,
        actual_questions >= target_questions as target_met
    from unioned
)

select * from final
