{{ config(materialized='view') }}
-- Per agent, file and metric: how far the platform's LLM scores agree with the rules, and
-- Cohen's κ, from the confusion counts (score_agreement_cells). Speed and
-- stability need no judgement: a disagreement there is the LLM's error.

with all_cells as (
    select * from {{ ref('score_agreement_cells') }}
),

-- the cells the rules scored
cells as (
    select * from all_cells
    where rule_score is not null
),

counts as (
    select
        agent,
        source_file,
        metric,
        min(metric_order) as metric_order,
        cast(coalesce(sum(item_count) filter (where rule_score is not null), 0) as bigint)
            as item_count,
        cast(coalesce(sum(item_count) filter (where llm_score = rule_score), 0) as bigint)
            as exact_agree,
        cast(coalesce(sum(item_count) filter (where abs(llm_score - rule_score) <= 1), 0)
            as bigint) as within_one,
        sum(item_count * abs(llm_score - rule_score))
            / nullif(sum(item_count) filter (where rule_score is not null), 0) as mean_abs_diff,
        cast(coalesce(sum(item_count) filter (where llm_score > rule_score), 0) as bigint)
            as llm_higher,
        cast(coalesce(sum(item_count) filter (where llm_score < rule_score), 0) as bigint)
            as llm_lower,
        cast(coalesce(sum(item_count) filter (where abs(llm_score - rule_score) >= 2), 0)
            as bigint) as far_apart,
        cast(coalesce(sum(item_count) filter (where rule_score is null), 0) as bigint)
            as rule_unscored
    from all_cells
    group by agent, source_file, metric
),

-- the items at each score from either side (the margins of the confusion counts)
llm_margins as (
    select agent, source_file, metric, llm_score as score, sum(item_count) as item_count
    from cells
    group by agent, source_file, metric, llm_score
),

rule_margins as (
    select agent, source_file, metric, rule_score as score, sum(item_count) as item_count
    from cells
    group by agent, source_file, metric, rule_score
),

-- what two independent raters with these margins would give, times the item count:
-- the pairs agreeing by chance, and the chance sum of squared differences
chance as (
    select
        llm_margins.agent,
        llm_margins.source_file,
        llm_margins.metric,
        coalesce(sum(llm_margins.item_count * rule_margins.item_count) filter (
            where llm_margins.score = rule_margins.score
        ), 0) as chance_agree_pairs,
        sum(
            llm_margins.item_count * rule_margins.item_count
            * (llm_margins.score - rule_margins.score) * (llm_margins.score - rule_margins.score)
        ) as chance_squared_diff_pairs
    from llm_margins
    inner join rule_margins
        on llm_margins.agent = rule_margins.agent
        and llm_margins.source_file = rule_margins.source_file
        and llm_margins.metric = rule_margins.metric
    group by llm_margins.agent, llm_margins.source_file, llm_margins.metric
),

observed as (
    select
        agent,
        source_file,
        metric,
        sum(item_count) as item_count,
        coalesce(sum(item_count) filter (where llm_score = rule_score), 0) as agree_count,
        sum(item_count * (llm_score - rule_score) * (llm_score - rule_score))
            as squared_diff_sum
    from cells
    group by agent, source_file, metric
),

-- Cohen's κ: 1 - observed / chance disagreement; null where chance disagreement is 0 (both
-- sides give one and the same score to every item). Unweighted: (n·agree - chance agree) /
-- (n² - chance agree). Quadratic weights (the squared difference in points):
-- 1 - n·Σ(llm - rule)² / Σ over margin pairs of (llm - rule)².
kappas as (
    select
        observed.agent,
        observed.source_file,
        observed.metric,
        case
            when observed.item_count * observed.item_count <> chance.chance_agree_pairs
                then (observed.item_count * observed.agree_count - chance.chance_agree_pairs)
                    / cast(observed.item_count * observed.item_count
                        - chance.chance_agree_pairs as double)
        end as unweighted_kappa,
        case
            when chance.chance_squared_diff_pairs > 0
                then 1 - observed.item_count * observed.squared_diff_sum
                    / chance.chance_squared_diff_pairs
        end as quadratic_kappa
    from observed
    inner join chance
        on observed.agent = chance.agent
        and observed.source_file = chance.source_file
        and observed.metric = chance.metric
),

final as (
    select
        counts.agent,
        counts.source_file,
        counts.metric,
        counts.metric_order,
        counts.item_count,
        counts.exact_agree,
        counts.within_one,
        counts.mean_abs_diff,
        counts.llm_higher,
        counts.llm_lower,
        counts.far_apart,
        counts.rule_unscored,
        -- 일관성 and 안정성 are pass/fail rules (0 or 5 points): any miss is a miss, so their κ
        -- is unweighted; on the 0-5 scales a near miss counts for more than a far one
        case
            when counts.metric in ('consistency', 'stability') then 'none' else 'quadratic'
        end as kappa_weights,
        case
            when counts.metric in ('consistency', 'stability') then kappas.unweighted_kappa
            else kappas.quadratic_kappa
        end as kappa
    from counts
    left join kappas
        on counts.agent = kappas.agent
        and counts.source_file = kappas.source_file
        and counts.metric = kappas.metric
)

select * from final
