{{ config_incremental_by_file('report_query_rounds') }}
-- The report's 데이터 품질 section, its list of Query IDs asked in one round only of a file of
-- several rounds (consistency cannot judge them), numbered by Query ID (the report lists the
-- first var('single_round_queries_shown')), with how many the file has and how many the
-- report does not list. Stored per file: a file without any has no row.

with queries as (
    select
        agent,
        source_file,
        file_fingerprint,
        query_id,
        round_label,
        query_text
    from {{ ref('report_query_rounds') }}
    where asked_in_one_round_only
        and {{ new_file_versions('source_file', 'asked_in_one_round_only') }}
)

select
    agent,
    source_file,
    file_fingerprint,
    row_number() over (partition by source_file order by query_id) as query_no,
    query_id,
    round_label,
    query_text,
    count(*) over (partition by source_file) as single_round_query_count,
    row_number() over (partition by source_file order by query_id)
        <= {{ var('single_round_queries_shown') }} as is_shown,
    greatest(count(*) over (partition by source_file) - {{ var('single_round_queries_shown') }}, 0)
        as hidden_query_count
from queries
