{{ config(materialized='view') }}
-- Per agent, file and track group: the share of eligible Query IDs whose rounds agree, as
-- 0-5 (SCORING §2.4). A view: a count over the stored per-query verdicts of a file.

with verdicts as (
    select * from {{ ref('int_scoring__query_verdicts') }}
),

counted as (
    {{ consistency_figures('verdicts') }}
)

select
    agent,
    source_file,
    track,
    eligible_queries,
    all_pass,
    all_fail,
    mismatch,
    not_eligible,
    consistency_score
from counted
