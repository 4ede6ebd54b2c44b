{{ config(
    materialized='incremental',
    on_schema_change='fail',
    post_hook=[
        "{{ delete_stale_run_pairs('select distinct head_file, base_file, pair_fingerprint from '
                                  ~ ref('item_changes')) }}",
        "{{ create_run_comparisons_between() }}",
    ],
    **replace_by_key_config(['head_file', 'base_file'])
) }}
-- Is a change between two runs real? Per pair of runs in item_changes and metric: the paired
-- difference with its 95% interval and the McNemar test of the pass/fail flips
-- (run_comparison_rows()). Incremental by pair of runs, as item_changes: a build compares
-- only the pairs it has not stored with the current fingerprints of both files.

with pairs as (
    select distinct agent, head_file, base_file, pair_fingerprint
    from {{ ref('item_changes') }} as changes
    {%- if is_incremental() %}
    where not exists (
        select 1 from {{ this }} as stored
        where stored.head_file = changes.head_file
            and stored.base_file = changes.base_file
            and stored.pair_fingerprint = changes.pair_fingerprint
    )
    {%- endif %}
),

changes as (
    select changes.*
    from {{ ref('item_changes') }} as changes
    inner join pairs
        on pairs.head_file = changes.head_file and pairs.base_file = changes.base_file
),

comparisons as (
    {{ run_comparison_rows('changes') }}
)

select
    comparisons.agent,
    comparisons.head_file,
    comparisons.base_file,
    comparisons.metric,
    comparisons.paired_count,
    comparisons.query_count,
    comparisons.base_value,
    comparisons.head_value,
    comparisons.delta,
    comparisons.delta_se,
    comparisons.delta_ci_low,
    comparisons.delta_ci_high,
    comparisons.regressed,
    comparisons.improved,
    comparisons.mcnemar_p,
    pairs.pair_fingerprint,
    -- when this pair was compared: a build that leaves both runs alone keeps its rows
    current_timestamp::timestamp as compared_at
from comparisons
inner join pairs using (agent, head_file, base_file)
