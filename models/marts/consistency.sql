with verdicts as (
    select * from {{ ref('query_consistency') }}
),

counted as (
    select
        agent,
        source_file,
        track,
        count_if(verdict <> 'not_eligible') as eligible_queries,
        count_if(verdict = 'all_pass') as all_pass,
        count_if(verdict = 'all_fail') as all_fail,
        count_if(verdict = 'mismatch') as mismatch,
        count_if(verdict = 'not_eligible') as not_eligible
    from verdicts
    group by all
)

select
    agent,
    source_file,
    track,
    eligible_queries,
    all_pass,
    all_fail,
    mismatch,
    not_eligible,
    5.0 * (all_pass + all_fail) / nullif(eligible_queries, 0) as consistency_score
from counted
