-- Export files that give no scored row at all, each with one reason a user can act on: refused
-- whole (stg_exports__files.reject_code) or read but every row rejected (input_files).

with files as (
    select * from {{ ref('input_files') }}
)

select
    agent,
    source_file,
    source_path,
    encoding,
    size_bytes,
    rows_read as csv_records,
    file_reject_code as reject_code,
    file_reject_reason as reject_reason
from files
where file_reject_code is not null
