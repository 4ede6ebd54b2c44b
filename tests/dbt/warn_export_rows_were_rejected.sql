{{ config(severity='warn') }}
-- Not an error, a signal: `dbt build` warns when any export row or file was not scored, so
-- a bad export is noticed before anyone reads its report. One row per file and reason;
-- the rows themselves are in the rejected_rows and rejected_files marts.

select source_file, reject_code, count(*) as rows_rejected
from {{ ref('rejected_rows') }}
group by all

union all

select source_file, reject_code, null as rows_rejected
from {{ ref('rejected_files') }}
