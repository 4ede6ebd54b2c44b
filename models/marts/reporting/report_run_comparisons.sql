{{ config(materialized='view') }}
-- The report's significance lines: each run's run_comparisons rows against its previous run
-- (runs.previous_source_file); a pair the user compared by hand (`compare`) is left out.

select
    comparisons.agent,
    comparisons.head_file as source_file,
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
    comparisons.mcnemar_p
from {{ ref('run_comparisons') }} as comparisons
inner join {{ ref('runs') }} as runs
    on runs.source_file = comparisons.head_file
    and runs.previous_source_file = comparisons.base_file
