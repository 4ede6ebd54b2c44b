{{ config_incremental_by_file('check_results') }}
-- The report's failed checks per check kind: per agent, file and kind, the checks that
-- failed among the items that ran (not error or empty), the failure rate, and how many of
-- the failures had the expected value somewhere else in the item.

with checks as (
    select * from {{ ref('check_results') }}
    where {{ new_file_versions() }} and item_status not in ('error', 'empty')
),

counted as (
    select
        agent,
        source_file,
        file_fingerprint,
        check_kind,
        count(case when not passed then 1 end) as failed,
        count(passed) as evaluated,
        count(case when value_elsewhere_in_item then 1 end) as value_elsewhere
    from checks
    group by agent, source_file, file_fingerprint, check_kind
)

select
    agent,
    source_file,
    file_fingerprint,
    check_kind,
    failed,
    evaluated,
    failed / nullif(evaluated, 0) as fail_rate,
    value_elsewhere
from counted
