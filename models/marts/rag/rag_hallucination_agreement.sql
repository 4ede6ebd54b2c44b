{{ config(tags=['rag']) }}

-- Per judge run: the judge's hallucination verdict against the human labels, over the judged
-- answers that have one (as the accuracy criterion counts them): the confusion counts,
-- precision and recall of the judge's "hallucination", and Cohen's κ.

with runs as (
    select * from {{ ref('int_rag__runs') }}
),

labelled as (
    select * from {{ ref('int_rag__judgements') }}
    where judge_status = 'judged' and human_hallucination is not null
),

counts as (
    select
        runs.run_id,
        count(labelled.run_id) as labelled_count,
        count(*) filter (
            where labelled.hallucination_detected and labelled.human_hallucination
        ) as true_positive,
        count(*) filter (
            where labelled.hallucination_detected and not labelled.human_hallucination
        ) as false_positive,
        count(*) filter (
            where not labelled.hallucination_detected and labelled.human_hallucination
        ) as false_negative,
        count(*) filter (
            where not labelled.hallucination_detected and not labelled.human_hallucination
        ) as true_negative
    from runs
    left join labelled
        on runs.run_id = labelled.run_id
    group by runs.run_id
),

margins as (
    select
        *,
        true_positive + false_positive as judge_positive_count,
        true_positive + false_negative as human_positive_count,
        -- the answers two independent raters with these margins would agree on, times n:
        -- both yes plus both no
        (true_positive + false_positive) * (true_positive + false_negative)
        + (false_negative + true_negative) * (false_positive + true_negative)
            as chance_agree_pairs
    from counts
),

final as (
    select
        run_id,
        labelled_count,
        true_positive,
        false_positive,
        false_negative,
        true_negative,
        judge_positive_count,
        human_positive_count,
        case
            when judge_positive_count > 0
                then true_positive / cast(judge_positive_count as double)
        end as judge_precision,
        case
            when human_positive_count > 0
                then true_positive / cast(human_positive_count as double)
        end as judge_recall,
        -- Cohen's κ (a yes/no verdict, unweighted): (n·agree - chance) / (n² - chance); null
        -- without labels or when both sides give every answer the same verdict
        case
            when labelled_count * labelled_count <> chance_agree_pairs
                then (labelled_count * (true_positive + true_negative) - chance_agree_pairs)
                    / cast(labelled_count * labelled_count - chance_agree_pairs as double)
        end as kappa
    from margins
)

select * from final
