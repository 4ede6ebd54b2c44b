{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The URL agent report's accuracy as the team counts it: per file, per round in round order
-- and for the set last, its items by accuracy points (success 5, partial 3, failure 0),
-- those no rule scored, the success rate and the mean.

with items as (
    select * from {{ ref('int_scoring__item_scores') }}
    where agent = 'url_agent' and {{ new_file_versions() }}
),

per_round as (
    select
        source_file,
        file_fingerprint,
        round_label as row_label,
        min(round_room) as round_room,
        min(round_repeat) as round_repeat,
        count(*) as item_count,
        count(case when accuracy_score = 5 then 1 end) as success_count,
        count(case when accuracy_score = 3 then 1 end) as partial_count,
        count(case when accuracy_score = 0 then 1 end) as failed_count,
        count(accuracy_score) as scored_count,
        avg(accuracy_score) as mean_accuracy
    from items
    group by source_file, file_fingerprint, round_label
),

the_set as (
    select
        source_file,
        file_fingerprint,
        '세트' as row_label,
        count(*) as item_count,
        count(case when accuracy_score = 5 then 1 end) as success_count,
        count(case when accuracy_score = 3 then 1 end) as partial_count,
        count(case when accuracy_score = 0 then 1 end) as failed_count,
        count(accuracy_score) as scored_count,
        avg(accuracy_score) as mean_accuracy
    from items
    group by source_file, file_fingerprint
),

ordered as (
    select
        source_file, file_fingerprint, row_label, item_count, success_count, partial_count,
        failed_count, scored_count, mean_accuracy,
        row_number() over (
            partition by source_file
            order by round_room nulls last, round_repeat nulls last, row_label
        ) as row_order
    from per_round
    union all
    select
        source_file, file_fingerprint, row_label, item_count, success_count, partial_count,
        failed_count, scored_count, mean_accuracy,
        -- after every round
        1000000 as row_order
    from the_set
)

select
    source_file,
    file_fingerprint,
    row_order,
    row_label,
    item_count,
    success_count,
    partial_count,
    failed_count,
    item_count - scored_count as unscored_count,
    success_count / nullif(scored_count, 0) as success_rate,
    mean_accuracy
from ordered
