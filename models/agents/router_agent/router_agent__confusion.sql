{{ config(materialized='table') }}
-- The confusion matrix of each run: queries per expected × returned agent ('(none)' when the
-- call returned no agent). Only the cells that occur; a missing cell is 0.

with routes as (
    select * from {{ ref('router_agent__routes') }}
)

select
    source_file,
    coalesce(expected_agent, '(none)') as expected_agent,
    coalesce(returned_agent, '(none)') as returned_agent,
    count(*) as query_count
from routes
group by source_file, coalesce(expected_agent, '(none)'), coalesce(returned_agent, '(none)')
