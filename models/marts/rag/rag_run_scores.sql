{{ config(tags=['rag']) }}

with runs as (
    select * from {{ ref('int_rag__runs') }}
),

judgements as (
    select * from {{ ref('rag_judgements') }}
),

criteria as (
    select * from {{ ref('int_rag__run_criteria') }}
),

datasets as (
    select * from {{ ref('stg_rag__questions') }}
),

run_totals as (
    select
        run_id,
        count(*) as questions,
        count(*) filter (where judge_status = 'judged') as judged_questions,
        count(*) filter (where judge_status = 'error') as error_questions,
        count(*) filter (where judge_status = 'judge_error') as judge_error_questions,
        count(*) filter (where not in_dataset) as questions_not_in_dataset,
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
        count(*) filter (where not passed_matches_stored) as passed_mismatches,
        count(*) filter (where not overall_score_matches_stored) as overall_score_mismatches,
        avg(stored_overall_score) as stored_mean_overall_score
    from judgements
    group by run_id
),

-- Dataset questions the run never answered.
not_run as (
    select
        runs.run_id,
        count(*) as dataset_questions_not_run
    from runs
    inner join datasets
        on runs.dataset_file = datasets.dataset_file
    left join judgements
        on runs.run_id = judgements.run_id
        and datasets.question_id = judgements.question_id
    where judgements.question_id is null
    group by runs.run_id
),

criteria_wide as (
    select
        run_id,
        max(target) filter (where criterion_id = 'in_domain_mean_score')
            as in_domain_mean_score_target,
        max(measured_value) filter (where criterion_id = 'in_domain_mean_score')
            as in_domain_mean_score,
        bool_or(met) filter (where criterion_id = 'in_domain_mean_score')
            as in_domain_mean_score_met,
        max(target) filter (where criterion_id = 'edge_case_behavior_correct')
            as edge_case_behavior_correct_target,
        max(measured_value) filter (where criterion_id = 'edge_case_behavior_correct')
            as edge_case_behavior_correct_rate,
        bool_or(met) filter (where criterion_id = 'edge_case_behavior_correct')
            as edge_case_behavior_correct_met,
        max(target) filter (where criterion_id = 'out_of_domain_correct_handling')
            as out_of_domain_correct_handling_target,
        max(measured_value) filter (where criterion_id = 'out_of_domain_correct_handling')
            as out_of_domain_correct_handling_rate,
        bool_or(met) filter (where criterion_id = 'out_of_domain_correct_handling')
            as out_of_domain_correct_handling_met,
        max(target) filter (where criterion_id = 'hallucination_detection_accuracy')
            as hallucination_detection_accuracy_target,
        max(measured_value) filter (where criterion_id = 'hallucination_detection_accuracy')
            as hallucination_detection_accuracy,
        bool_or(met) filter (where criterion_id = 'hallucination_detection_accuracy')
            as hallucination_detection_accuracy_met,
        count(*) filter (where met) as criteria_met,
        count(*) filter (where met is not null) as criteria_measured,
        count(*) as criteria_total
    from criteria
    group by run_id
),

final as (
    select
        runs.run_id,
        runs.report_file,
        runs.dataset_file,
        runs.dataset_version,
        runs.run_at,
        runs.run_seq,
        runs.previous_run_id,
        runs.judge_model,
        runs.judge_provider,
        runs.is_demo_judge,
        coalesce(run_totals.questions, 0) as questions,
        coalesce(run_totals.judged_questions, 0) as judged_questions,
        coalesce(run_totals.error_questions, 0) as error_questions,
        coalesce(run_totals.judge_error_questions, 0) as judge_error_questions,
        coalesce(run_totals.questions_not_in_dataset, 0) as questions_not_in_dataset,
        coalesce(not_run.dataset_questions_not_run, 0) as dataset_questions_not_run,
        coalesce(run_totals.passed_questions, 0) as passed_questions,
        run_totals.pass_rate,
        run_totals.mean_overall_score,
        run_totals.mean_faithfulness,
        run_totals.mean_relevance,
        run_totals.mean_completeness,
        coalesce(run_totals.hallucinations, 0) as hallucinations,
        run_totals.hallucination_rate,
        criteria_wide.in_domain_mean_score_target,
        criteria_wide.in_domain_mean_score,
        criteria_wide.in_domain_mean_score_met,
        criteria_wide.edge_case_behavior_correct_target,
        criteria_wide.edge_case_behavior_correct_rate,
        criteria_wide.edge_case_behavior_correct_met,
        criteria_wide.out_of_domain_correct_handling_target,
        criteria_wide.out_of_domain_correct_handling_rate,
        criteria_wide.out_of_domain_correct_handling_met,
        criteria_wide.hallucination_detection_accuracy_target,
        criteria_wide.hallucination_detection_accuracy,
        criteria_wide.hallucination_detection_accuracy_met,
        coalesce(criteria_wide.criteria_met, 0) as criteria_met,
        coalesce(criteria_wide.criteria_measured, 0) as criteria_measured,
        coalesce(criteria_wide.criteria_total, 0) as criteria_total,
        runs.stored_passed_questions,
        runs.stored_pass_rate,
        runs.stored_overall_score,
        run_totals.stored_mean_overall_score,
        coalesce(run_totals.passed_mismatches, 0) as passed_mismatches,
        coalesce(run_totals.overall_score_mismatches, 0) as overall_score_mismatches,
        runs.is_complete,
        runs.stopped_reason
    from runs
    left join run_totals
        on runs.run_id = run_totals.run_id
    left join not_run
        on runs.run_id = not_run.run_id
    left join criteria_wide
        on runs.run_id = criteria_wide.run_id
)

select * from final
