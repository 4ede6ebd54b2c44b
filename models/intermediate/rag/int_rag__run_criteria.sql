{{ config(tags=['rag']) }}

-- One row per run × success criterion of seed 003 §7, measured from the judgements.

with judgements as (
    select * from {{ ref('int_rag__judgements') }}
),

runs as (
    select * from {{ ref('int_rag__runs') }}
),

criteria as (
    select * from {{ ref('rag_criteria_targets') }}
),

-- Category criteria count every question of the category that has a verdict or failed on
-- the chatbot's side (its error scores 0 and is not behaviour-correct). A judge error has no
-- verdict and is never averaged in: it is counted beside, in judge_errors.
category_measures as (
    select
        runs.run_id,
        criteria.criterion_id,
        count(judgements.question_id) filter (where judgements.judge_status <> 'judge_error')
            as denominator,
        case criteria.metric
            when 'behavior_correct_rate'
                then count(*) filter (
                    where judgements.judge_status = 'judged' and judgements.behavior_correct
                )
        end as numerator,
        case criteria.metric
            when 'mean_overall_score' then avg(coalesce(judgements.overall_score, 0))
                filter (where judgements.judge_status <> 'judge_error')
            when 'behavior_correct_rate' then avg(
                case
                    when judgements.judge_status = 'judged' and judgements.behavior_correct
                        then 1.0::double
                    else 0.0::double
                end
            ) filter (where judgements.judge_status <> 'judge_error')
        end as measured_value,
        count(*) filter (
            where judgements.question_id is not null
                and judgements.judge_status not in ('judged', 'judge_error')
        ) as unjudged,
        count(*) filter (where judgements.judge_status = 'judge_error') as judge_errors
    from runs
    cross join criteria
    left join judgements
        on runs.run_id = judgements.run_id
        and criteria.category = judgements.category
    where criteria.metric in ('mean_overall_score', 'behavior_correct_rate')
    group by runs.run_id, criteria.criterion_id, criteria.metric
),

-- Judge vs human label, only where a human label exists: never judged against itself.
label_measures as (
    select
        runs.run_id,
        criteria.criterion_id,
        count(judgements.question_id) as denominator,
        count(*) filter (
            where judgements.hallucination_detected = judgements.human_hallucination
        ) as numerator,
        avg(
            case
                when judgements.hallucination_detected = judgements.human_hallucination
                    then 1.0::double
                else 0.0::double
            end
        ) as measured_value,
        0 as unjudged,
        0 as judge_errors
    from runs
    cross join criteria
    left join judgements
        on runs.run_id = judgements.run_id
        and judgements.judge_status = 'judged'
        and judgements.human_hallucination is not null
    where criteria.metric = 'hallucination_detection_accuracy'
    group by runs.run_id, criteria.criterion_id
),

run_questions as (
    select
        run_id,
        count(*) as judged_results
    from judgements
    where judge_status = 'judged'
    group by run_id
),

measures as (
    select * from category_measures
    union all
    select * from label_measures
),

evaluated as (
    select
        measures.run_id,
        criteria.criterion_id,
        criteria.sort_order,
        criteria.label_ko,
        criteria.category,
        criteria.metric,
        criteria.target,
        case when measures.denominator > 0 then measures.measured_value end as measured_value,
        measures.numerator,
        measures.denominator,
        measures.judge_errors,
        case
            when measures.denominator > 0 then measures.measured_value >= criteria.target
        end as met,
        case
            when criteria.metric = 'hallucination_detection_accuracy' and measures.denominator = 0
                then '측정 불가: 사람 라벨(rag_hallucination_labels*.csv)이 없습니다'
            when criteria.metric = 'hallucination_detection_accuracy'
                and measures.denominator < coalesce(run_questions.judged_results, 0)
                then '사람 라벨이 있는 ' || measures.denominator || '/'
                    || run_questions.judged_results || '문항 기준'
            when measures.denominator = 0 then '측정 불가: 해당 카테고리 문항이 없습니다'
            when measures.unjudged > 0 and measures.judge_errors > 0
                then '판정 불가 ' || measures.unjudged || '건은 0점/미충족으로 포함, judge 오류 '
                    || measures.judge_errors || '건은 제외'
            when measures.unjudged > 0
                then '판정 불가 ' || measures.unjudged || '건은 0점/미충족으로 포함'
            when measures.judge_errors > 0
                then 'judge 오류 ' || measures.judge_errors || '건은 평균에서 제외'
        end as note
    from measures
    inner join criteria
        on measures.criterion_id = criteria.criterion_id
    left join run_questions
        on measures.run_id = run_questions.run_id
)

select * from evaluated
