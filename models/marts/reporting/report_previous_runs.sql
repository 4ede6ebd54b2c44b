{{ config(materialized='view') }}
-- The report's "이전 실행 대비": per run with a previous run (runs.previous_source_file), the
-- change of each headline figure and how many items regressed or improved (item_changes).

with runs as (
    select * from {{ ref('runs') }}
),

changes as (
    select
        head_file,
        base_file,
        count(case when change = 'regressed' then 1 end) as regressed,
        count(case when change = 'improved' then 1 end) as improved
    from {{ ref('item_changes') }}
    group by head_file, base_file
)

select
    head.agent,
    head.source_file,
    head.previous_source_file as base_file,
    head.intent_score - base.intent_score as intent_delta,
    head.accuracy_score - base.accuracy_score as accuracy_delta,
    head.consistency_score - base.consistency_score as consistency_delta,
    head.stability_score - base.stability_score as stability_delta,
    head.mean_response_time_sec - base.mean_response_time_sec as latency_delta,
    coalesce(changes.regressed, 0) as regressed,
    coalesce(changes.improved, 0) as improved
from runs as head
inner join runs as base
    on base.source_file = head.previous_source_file
left join changes
    on changes.head_file = head.source_file
    and changes.base_file = head.previous_source_file
