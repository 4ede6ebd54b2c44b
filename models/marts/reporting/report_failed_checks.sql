{{ config_incremental_by_file('check_results') }}
-- The report's "가장 많이 실패한 체크": per agent, file, check kind and expected value, how
-- often the check failed among the items that ran (not error or empty), ranked most failed
-- first. Only pairs that failed at least once.

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
        expected_value,
        count(case when not passed then 1 end) as failed,
        count(passed) as evaluated
    from checks
    group by agent, source_file, file_fingerprint, check_kind, expected_value
)

select
    agent,
    source_file,
    file_fingerprint,
    row_number() over (
        partition by agent, source_file
        order by failed desc, check_kind, expected_value nulls last
    ) as failed_rank,
    check_kind,
    expected_value,
    failed,
    evaluated
from counted
where failed > 0
