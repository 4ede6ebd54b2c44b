{{ config_incremental_by_file('stg_exports__files') }}
-- The records that repeat the Item ID of an earlier record of their file, neither broken by
-- another row rule (SCORING §0): the first is scored, each later one is rejected as
-- duplicate_item_id (rejected_rows) and left out of int_exports__results. A narrow model of
-- its own, not a window in stg_exports__rows: there the window sorted every wide row (1M
-- rows: 24.4 s against 20.4 s without it). A file without a repeat has one row with no
-- record_no, so that an incremental build does not look at its rows again.

with files as (
    select agent, source_file, file_fingerprint
    from {{ ref('stg_exports__files') }}
    where {{ new_file_versions() }}
),

records as {{ not_materialized() }} (
    select source_file, record_no, trim(item_id) as item_key
    from {{ ref('stg_exports__rows') }}
    where reject_code is null and {{ new_file_versions() }}
),

repeated_keys as (
    select source_file, item_key, min(record_no) as first_record_no
    from records
    group by source_file, item_key
    having count(*) > 1
),

repeats as (
    select
        records.source_file,
        records.record_no,
        repeated_keys.first_record_no
    from records
    inner join repeated_keys
        on repeated_keys.source_file = records.source_file
        and repeated_keys.item_key = records.item_key
    where records.record_no > repeated_keys.first_record_no
)

select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    repeats.record_no,
    repeats.first_record_no,
    case when repeats.record_no is not null then 'duplicate_item_id' end as reject_code,
    case when repeats.record_no is not null then
        {{ agent_header_of('item_id', 'Item ID') }} || ' repeats record '
        || repeats.first_record_no || ': only the first is scored'
    end as reject_reason
from files
left join repeats
    on repeats.source_file = files.source_file
