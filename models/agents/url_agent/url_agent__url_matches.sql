{{ config(materialized='table') }}
-- The URL agent's own mart, one row per export row: the URL(s) it returned, what 기대결과
-- expected, how they matched and why an item failed, as int_url_agent__item_scores scored
-- them.

with items as (
    select * from {{ ref('int_url_agent__item_scores') }}
)

select
    source_file,
    file_fingerprint,
    record_no,
    status,
    error_message,
    expected_data_key,
    expected_path,
    button_urls,
    button_data_keys,
    match_kind,
    accuracy_points,
    failure_reason
from items
