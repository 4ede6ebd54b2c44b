{{ config(materialized='table') }}
-- The routing test's own mart, one row per query: where it was expected to go, where the
-- orchestrator sent it, the export's own verdict beside ours, latency and tokens.

with items as (
    select * from {{ ref('int_router_agent__item_scores') }}
)

select
    source_file,
    file_fingerprint,
    record_no,
    item_id,
    query_text,
    status,
    error_message,
    expected_agent,
    returned_agent,
    routed_right,
    export_verdict,
    verdict_disagrees,
    response_time_sec,
    input_tokens,
    output_tokens,
    thoughts_tokens,
    total_tokens,
    attempts
from items
