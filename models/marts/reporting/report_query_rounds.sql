{{ config_incremental_by_file('item_scores') }}
-- The report's 데이터 품질 section, what its list of one-round Query IDs is drawn from: every
-- Query ID of a file with the rounds it was asked in. Stored per file as its item rows
-- change; every file keeps rows here, so report_single_round_queries re-reads only new files.

with items as (
    select
        agent,
        source_file,
        file_fingerprint,
        query_id,
        round_label,
        query_text
    from {{ ref('item_scores') }}
    where {{ new_file_versions() }}
),

file_rounds as (
    select
        source_file,
        count(distinct round_label) as file_round_count
    from items
    group by source_file
),

query_rounds as (
    -- one row per query and round first: twice as fast as count(distinct) at 1M items
    select
        agent,
        source_file,
        file_fingerprint,
        query_id,
        round_label,
        min(query_text) as query_text
    from items
    where query_id is not null
    group by agent, source_file, file_fingerprint, query_id, round_label
),

queries as (
    select
        agent,
        source_file,
        file_fingerprint,
        query_id,
        count(round_label) as round_count,
        min(round_label) as round_label,
        min(query_text) as query_text
    from query_rounds
    group by agent, source_file, file_fingerprint, query_id
)

select
    queries.agent,
    queries.source_file,
    queries.file_fingerprint,
    queries.query_id,
    queries.round_count,
    file_rounds.file_round_count,
    -- only a file of several rounds can have a Query ID asked in just one
    queries.round_count = 1 and file_rounds.file_round_count > 1 as asked_in_one_round_only,
    queries.round_label,
    queries.query_text
from queries
inner join file_rounds on file_rounds.source_file = queries.source_file
