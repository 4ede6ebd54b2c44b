{{ config(materialized='view') }}
-- Per agent, file and track group: the share of eligible Query IDs whose rounds agree, as
-- 0-5 (SCORING §2.4). A view of the counts stored per file in int_scoring__verdict_figures.

with counted as (
    select * from {{ ref('int_scoring__verdict_figures') }}
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
