{{ config(materialized='view') }}
-- Per agent, file, track group and Query ID: whether its rounds agree (SCORING §2.4);
-- stored per file in int_scoring__query_verdicts as each file's rows change.

select
    agent,
    source_file,
    track,
    query_id,
    round_count,
    pass_count,
    verdict,
    passed_any_round,
    passed_all_rounds,
    is_flaky
from {{ ref('int_scoring__query_verdicts') }}
