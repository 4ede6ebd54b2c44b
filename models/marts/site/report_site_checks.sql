{{ config(materialized='view') }}
-- Each check of an item as the run browser's item page shows it: its verdict and the field
-- of the reply it read (seeds/check_paths.csv), which the page highlights in the raw reply.

select
    checks.agent,
    checks.source_file,
    checks.record_no,
    checks.check_no,
    checks.check_kind,
    checks.expected_value,
    checks.passed,
    checks.value_elsewhere_in_item,
    paths.target as read_target,
    case
        when paths.target = 'message' then 'assistantMessage'
        else 'dataUIList[*].uiValue' || substr(paths.json_path, 2)
    end as read_field
from {{ ref('check_results') }} as checks
left join {{ ref('check_paths') }} as paths
    on paths.check_kind = checks.check_kind
