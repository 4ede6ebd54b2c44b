{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The report's 데이터 품질 section, what its list of one-round Query IDs is drawn from: every
-- Query ID of a file with the rounds it was asked in. Stored per file as its item rows
-- change; every file keeps rows here, so report_single_round_queries re-reads only new files.

with items as (
    -- a file by one integer, file_key(), where its queries and rounds are grouped; its
    -- names come back from `files` at the end
    select
        {{ file_key('source_file') }} as file_key,
        query_id,
        round_label,
        query_text
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

files as (
    {{ file_names(ref('int_scoring__item_scores'), new_file_versions()) }}
),

file_rounds as (
    select
        file_key,
        count(distinct round_label) as file_round_count
    from items
    group by file_key
),

query_rounds as (
    -- one row per query and round first: twice as fast as count(distinct) at 1M items
    select
        file_key,
        query_id,
        round_label,
        min(query_text) as query_text
    from items
    where query_id is not null
    group by file_key, query_id, round_label
),

queries as (
    select
        file_key,
        query_id,
        count(round_label) as round_count,
        min(round_label) as round_label,
        min(query_text) as query_text
    from query_rounds
    group by file_key, query_id
)

select
    files.agent,
    files.source_file,
    files.file_fingerprint,
    queries.query_id,
    queries.round_count,
    file_rounds.file_round_count,
    -- only a file of several rounds can have a Query ID asked in just one
    queries.round_count = 1 and file_rounds.file_round_count > 1 as asked_in_one_round_only,
    queries.round_label,
    queries.query_text
from queries
inner join file_rounds on file_rounds.file_key = queries.file_key
inner join files on files.file_key = queries.file_key
