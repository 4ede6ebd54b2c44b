{{ config_incremental_by_file() }}
with check_results as (
    select * from {{ ref('int_plan_agent__check_results') }}
    where {{ changed_files_only() }}
),

items as (
    select source_file, record_no, status from {{ ref('int_plan_agent__item_scores') }}
    where {{ changed_files_only() }}
)

select
    'plan_agent' as agent,
    check_results.source_file,
    check_results.file_fingerprint,
    check_results.record_no,
    check_results.item_id,
    check_results.check_no,
    check_results.check_kind,
    check_results.expected_value,
    check_results.passed,
    check_results.value_elsewhere_in_item,
    items.status as item_status
from check_results
inner join items
    on items.source_file = check_results.source_file
    and items.record_no = check_results.record_no
