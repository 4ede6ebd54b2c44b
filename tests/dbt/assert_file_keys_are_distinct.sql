-- No two exports share a file_key(): the per-file models join a file's rows by it.

select {{ file_key('source_file') }} as file_key, count(distinct source_file) as files
from {{ ref('stg_exports__files') }}
group by {{ file_key('source_file') }}
having count(distinct source_file) > 1
