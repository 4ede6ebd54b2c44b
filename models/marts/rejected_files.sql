-- Export files that give no scored row at all, each with one reason a user can act on
-- (stg_exports__files.reject_code says which).

with files as (
    select * from {{ ref('stg_exports__files') }}
)

select
    agent,
    source_file,
    source_path,
    encoding,
    size_bytes,
    csv_records,
    reject_code,
    reject_reason
from files
where reject_code is not null
