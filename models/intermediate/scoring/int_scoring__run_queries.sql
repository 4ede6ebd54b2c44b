{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The distinct queries of every source file, by Query ID and by whitespace-normalised query
-- text: what the runs mart compares to pair a run with the run before it.

with items as (
    select
        agent,
        source_file,
        file_fingerprint,
        query_id,
        {{ query_key('query_text') }} as query_key
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
)

select distinct
    agent,
    source_file,
    file_fingerprint,
    query_id,
    query_key
from items
