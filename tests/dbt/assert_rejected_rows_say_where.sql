-- Every rejected row can be found in its file: by record number (Excel row - 1) or, for a
-- record DuckDB could not parse, at least by its line number.

select agent, source_file, reject_code, reject_reason
from {{ ref('rejected_rows') }}
where record_no is null and line_no is null
