{{ config(tags=['rag']) }}

-- rag_dataset_coverage's rows of the course plan (seed 003 §2.2) for each dataset file:
-- its course tiers, its courses and the questions that name no planned course, with their
-- targets. A question touches the planned courses of its course filter and coverage labels
-- (read through seeds/rag_course_aliases.csv).

with questions as (
    select * from {{ ref('stg_rag__questions') }}
),

datasets as (
    select * from {{ ref('stg_rag__datasets') }}
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

question_labels as (
    select
        dataset_file,
        question_key,
        {{ unnest_list(
            list_concat('coalesce(expected_courses, ' ~ sql_list([]) ~ ')', 'coverage'),
            'course_label'
        ) }}
    from questions
),

question_courses as (
    select distinct
        question_labels.dataset_file,
        question_labels.question_key,
        aliases.course
    from question_labels
    inner join aliases
        on question_labels.course_label = aliases.alias
),

-- Questions that name no planned course: shown, not counted against any target.
unplanned_questions as (
    select questions.dataset_file, questions.question_key
    from questions
    left join question_courses
        on questions.question_key = question_courses.question_key
    where question_courses.question_key is null
),

tier_targets as (
    select
        tier,
        sum(target_questions) as target_questions
    from course_plan
    group by tier
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
        tier_targets.target_questions,
        count(distinct question_courses.question_key) as actual_questions
    from datasets
    cross join tiers
    left join tier_targets
        on tiers.tier = tier_targets.tier
    left join course_plan
        on tiers.tier = course_plan.tier
    left join question_courses
        on datasets.dataset_file = question_courses.dataset_file
        and course_plan.course = question_courses.course
    group by all
),

unplanned_rows as (
    select
        datasets.dataset_file,
        'course_tier' as coverage_level,
        null as category,
        'no_planned_course' as coverage_item,
        '계획 과정 외' as label_ko,
        99 as sort_order,
        null as target_questions,
        count(unplanned_questions.question_key) as actual_questions
    from datasets
    left join unplanned_questions
        on datasets.dataset_file = unplanned_questions.dataset_file
    group by all
),

unioned as (
    select * from tier_rows
    union all
    select * from unplanned_rows
    union all
    select * from course_rows
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
