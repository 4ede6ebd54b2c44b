{{ config(
    materialized='incremental',
    on_schema_change='append_new_columns',
    post_hook=[
        "{{ delete_stale_run_pairs(run_pairs_now(ref('runs'), ref('int_scoring__run_files'))) }}",
        "{{ create_item_changes_between(ref('int_scoring__item_scores'), ref('check_results')) }}",
    ],
    **replace_by_key_config(['head_file', 'base_file'])
) }}
-- Every item of every run that has a previous run (runs.previous_source_file), compared with
-- the same item there (item_change_rows()). Incremental by pair of runs: a build computes only
-- the pairs it has not stored with the current fingerprints of both files (and replaces
-- what it stored for them, run_pairs_now()), so adding a run
-- compares only that run (and a run that now follows it); a build with nothing new compares
-- nothing.

with current_pairs as (
    {{ run_pairs_now(ref('runs'), ref('int_scoring__run_files')) }}
),

pairs as (
    select * from current_pairs
    {%- if is_incremental() %}
    where not exists (
        select 1 from {{ this }} as stored
        where stored.head_file = current_pairs.head_file
            and stored.base_file = current_pairs.base_file
            and stored.pair_fingerprint = current_pairs.pair_fingerprint
    )
    {%- endif %}
),

changes as (
    {{ item_change_rows('pairs', ref('int_scoring__item_scores'), ref('check_results')) }}
)

select
    changes.agent,
    changes.head_file,
    changes.base_file,
    changes.query_id,
    changes.query_text,
    changes.round_label,
    changes.round_room,
    changes.round_repeat,
    changes.base_record_no,
    changes.head_record_no,
    changes.base_status,
    changes.head_status,
    changes.base_score,
    changes.head_score,
    changes.base_response_time_sec,
    changes.head_response_time_sec,
    changes.change,
    changes.base_error_message,
    changes.head_error_message,
    changes.base_failed_checks,
    changes.head_failed_checks,
    changes.checks_failing_now,
    changes.checks_passing_now,
    {%- for column in ['accuracy_score', 'stability_score', 'speed_points', 'total_score'] %}
    changes.base_{{ column }},
    changes.head_{{ column }},
    {%- endfor %}
    pairs.pair_fingerprint,
    -- when this pair was compared: a build that leaves both runs alone keeps its rows
    current_timestamp::timestamp as compared_at
from changes
inner join pairs using (agent, head_file, base_file)
