{{ config(tags=['rag']) }}

with judgements as (
    select * from {{ ref('rag_judgements') }}
),

categories as (
    select * from {{ ref('rag_categories') }}
),

subcategories as (
    select * from {{ ref('rag_question_plan') }}
),

behaviors as (
    select * from {{ ref('rag_expected_behaviors') }}
),

difficulties as (
    select * from {{ ref('rag_difficulties') }}
),

-- A question with several course areas counts once under each, one with none under '(미지정)'.
course_rows as (
    select
        judgements.*,
        {{ unnest_list(
            'case when ' ~ list_size('course_areas') ~ ' > 0 then course_areas else '
            ~ sql_list(['(미지정)']) ~ ' end',
            'course_area'
        ) }}
    from judgements
),

-- One row per judgement and dimension it is counted under.
dimension_rows as (
    select 'category' as dimension, 1 as dimension_order,
        coalesce(category, '(미지정)') as dimension_value, judgements.*
    from judgements
    union all
    select 'subcategory', 2, coalesce(subcategory, '(미지정)'), judgements.*
    from judgements
    union all
    select 'course', 3, course_area, {{ star_except(['course_area']) }}
    from course_rows
    union all
    select 'difficulty', 4, coalesce(difficulty, '(미지정)'), judgements.*
    from judgements
    union all
    select 'expected_behavior', 5, coalesce(expected_behavior, '(미지정)'), judgements.*
    from judgements
),

aggregated as (
    select
        run_id,
        dimension,
        dimension_order,
        dimension_value,
        count(*) as questions,
        count(*) filter (where judge_status = 'judged') as judged_questions,
        count(*) filter (where passed) as passed_questions,
        avg(case when passed then 1.0::double else 0.0::double end) as pass_rate,
        avg(overall_score) as mean_overall_score,
        avg(faithfulness) filter (where judge_status = 'judged') as mean_faithfulness,
        avg(relevance) filter (where judge_status = 'judged') as mean_relevance,
        avg(completeness) filter (where judge_status = 'judged') as mean_completeness,
        count(*) filter (
            where judge_status = 'judged' and hallucination_detected
        ) as hallucinations,
        avg(case when hallucination_detected then 1.0::double else 0.0::double end)
            filter (where judge_status = 'judged') as hallucination_rate,
        avg(case when behavior_correct then 1.0::double else 0.0::double end)
            filter (where judge_status = 'judged') as behavior_correct_rate
    from dimension_rows
    group by run_id, dimension, dimension_order, dimension_value
),

-- Plan order for known values (seeds), then alphabetical; unknown values last.
ordered as (
    select
        aggregated.*,
        coalesce(
            case aggregated.dimension
                when 'category' then categories.sort_order
                when 'subcategory' then subcategories.sort_order
                when 'expected_behavior' then behaviors.sort_order
                when 'difficulty' then difficulties.sort_order
            end,
            1000
        ) as value_order
    from aggregated
    left join categories
        on aggregated.dimension = 'category'
        and aggregated.dimension_value = categories.category
    left join subcategories
        on aggregated.dimension = 'subcategory'
        and aggregated.dimension_value = subcategories.subcategory
    left join behaviors
        on aggregated.dimension = 'expected_behavior'
        and aggregated.dimension_value = behaviors.expected_behavior
    left join difficulties
        on aggregated.dimension = 'difficulty'
        and aggregated.dimension_value = difficulties.difficulty
),

final as (
    select
        run_id,
        dimension,
        dimension_value,
        row_number() over (
            partition by run_id, dimension
            order by value_order, dimension_value = '(미지정)', dimension_value
        ) as value_rank,
        dimension_order,
        questions,
        judged_questions,
        passed_questions,
        pass_rate,
        mean_overall_score,
        mean_faithfulness,
        mean_relevance,
        mean_completeness,
        hallucinations,
        hallucination_rate,
        behavior_correct_rate
    from ordered
)

select * from final
