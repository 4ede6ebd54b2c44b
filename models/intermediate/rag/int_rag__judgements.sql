{{ config(tags=['rag']) }}

with results as (
    select * from {{ ref('stg_rag__judgements') }}
),

runs as (
    select * from {{ ref('int_rag__runs') }}
),

questions as (
    select * from {{ ref('stg_rag__questions') }}
),

hallucination_labels as (
    select * from {{ ref('stg_rag__hallucination_labels') }}
    where problem is null
),

label_candidates as (
    -- the human hallucination labels that apply to each run's answers
    select
        runs.run_id,
        hallucination_labels.question_id,
        hallucination_labels.is_hallucination,
        hallucination_labels.labels_file,
        hallucination_labels.row_no,
        hallucination_labels.report_file is not null as is_run_specific
    from runs
    inner join hallucination_labels
        on hallucination_labels.report_file is null
        or hallucination_labels.report_file = runs.report_file
),

ranked_labels as (
    -- of those, one per answer: a label naming the report wins over a label for every
    -- report (blank report_file), then the latest labels file and row
    select
        *,
        row_number() over (
            partition by run_id, question_id
            order by is_run_specific desc, labels_file desc, row_no desc
        ) as label_rank
    from label_candidates
),

labels as (
    select
        run_id,
        question_id,
        is_hallucination as human_hallucination,
        labels_file || ':' || row_no as label_source
    from ranked_labels
    where label_rank = 1
),

rules as (
    select * from {{ ref('rag_scoring_rules') }}
),

-- Course areas of a question: its metadata.coverage minus entries that are its doc-type filter.
question_courses as (
    select
        question_key,
        {{ list_without('coverage', 'coalesce(expected_doc_types, ' ~ sql_list([]) ~ ')') }}
            as course_areas
    from questions
),

joined as (
    select
        runs.run_id,
        runs.report_file,
        runs.run_at,
        runs.run_seq,
        runs.dataset_file,
        results.result_ordinal,
        results.question_id,
        questions.question_key is not null as in_dataset,
        coalesce(questions.question_text, results.question_text) as question_text,
        coalesce(questions.category, results.category) as category,
        coalesce(questions.subcategory, results.subcategory) as subcategory,
        results.category as reported_category,
        results.subcategory as reported_subcategory,
        questions.expected_behavior,
        questions.difficulty,
        question_courses.course_areas,
        results.answer_length,
        results.retrieved_docs_count,
        results.retrieval_time_ms,
        results.filter_applied,
        results.error,
        results.faithfulness,
        results.relevance,
        results.completeness,
        results.hallucination_detected,
        results.behavior_correct,
        results.reasoning,
        results.stored_overall_score,
        results.stored_passed,
        case
            -- the judge (or the run) failed to give a verdict: no score, never averaged in
            when results.error like 'judge:%' or results.error like 'not judged:%'
                then 'judge_error'
            -- the chatbot failed (or gave no answer): a failed answer, scored as such
            when results.error is not null then 'error'
            when not results.has_judge then 'no_judge'
            when results.faithfulness is null
                or results.relevance is null
                or results.completeness is null
                or results.hallucination_detected is null
                or results.behavior_correct is null then 'incomplete_judge'
            when results.faithfulness not between 1 and 5
                or results.relevance not between 1 and 5
                or results.completeness not between 1 and 5 then 'invalid_judge'
            else 'judged'
        end as judge_status,
        labels.human_hallucination,
        labels.label_source,
        rules.in_domain_pass_min_overall_score,
        rules.hallucination_penalty,
        rules.stored_score_tolerance
    from results
    inner join runs
        on results.report_file = runs.report_file
    left join questions
        on runs.dataset_file = questions.dataset_file
        and results.question_id = questions.question_id
    left join question_courses
        on questions.question_key = question_courses.question_key
    left join labels
        on runs.run_id = labels.run_id
        and results.question_id = labels.question_id
    cross join rules
),

scored as (
    select
        *,
        case
            when judge_status = 'judged' then {{ rag_overall_score(
                'faithfulness', 'relevance', 'completeness',
                'hallucination_detected', 'hallucination_penalty') }}
        end as overall_score
    from joined
),

judged as (
    select
        *,
        judge_status = 'judged' and {{ rag_passed(
            'category', 'overall_score', 'hallucination_detected',
            'behavior_correct', 'in_domain_pass_min_overall_score') }} as passed
    from scored
)

select * from judged
