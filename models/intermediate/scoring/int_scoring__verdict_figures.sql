{{ config_incremental_by_file('int_scoring__query_verdicts') }}
-- Per agent, file and track group: the consistency counts and score (SCORING §2.4) and how
-- its queries fare over repeated rounds (pass@k, pass^k, flaky), counted once per file from
-- its stored verdicts. The consistency and set_scores marts read these few rows: as views
-- over the verdicts, every read counted them all again (1M items: 500k verdicts).

with verdicts as {{ not_materialized() }} (
    select * from {{ ref('int_scoring__query_verdicts') }}
    where {{ new_file_versions() }}
),

files as (
    {{ file_names(ref('int_scoring__query_verdicts'), new_file_versions()) }}
),

consistency as (
    {{ consistency_figures('verdicts') }}
),

repeats as (
    {{ repeat_figures('verdicts') }}
)

select
    consistency.agent,
    consistency.source_file,
    files.file_fingerprint,
    consistency.track,
    consistency.eligible_queries,
    consistency.all_pass,
    consistency.all_fail,
    consistency.mismatch,
    consistency.not_eligible,
    consistency.consistency_score,
    repeats.pass_k,
    repeats.pass_k_query_count,
    repeats.pass_any_round_rate,
    repeats.pass_all_rounds_rate,
    repeats.flaky_query_count,
    repeats.fewer_rounds_query_count
from consistency
inner join files
    on files.agent = consistency.agent and files.source_file = consistency.source_file
-- every group with a scored query has verdicts: repeats never has a group consistency lacks
left join repeats
    on repeats.agent = consistency.agent
    and repeats.source_file = consistency.source_file
    and repeats.track = consistency.track
