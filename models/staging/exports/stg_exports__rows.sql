-- Every export record, with the row rules applied (SCORING §0): a record
-- that cannot be scored gets a reject_code and a reason; int_exports__results hands only the
-- others to the agents' models. The rejected ones surface in the rejected_rows mart. A
-- repeated Item ID is a rule across records: int_exports__repeated_items decides it.
-- Raw JSON is parsed here, once; only what the agents score of it is kept
-- (raw_json_columns()), never the multi-kB text. An export the loader left in place is read
-- here tolerantly; its hooks number and locate its rejected records, or refuse it
-- (macros/direct_export_reads.sql: list_direct_reads, settle_direct_reads).
-- depends_on: {{ ref('base_exports__files') }}
{{ config_incremental_by_file('landed',
    pre_hook=["{{ list_direct_reads() }}"],
    post_hook=["{{ settle_direct_reads() }}"]) }}
{%- do after_load() %}
{%- do check_agent_shapes() %}
{%- set text_columns = export_text_columns() %}

{%- set landing_columns = ['agent', 'source_file', 'file_fingerprint', 'record_no', 'line_no']
    + text_columns + ['raw_json', 'extra_columns', 'csv_error_type', 'csv_error', 'csv_line'] %}

with fresh as {{ 'materialized' if fresh_rows_buffered() }} (
    -- on an incremental build, only the files landed (or rules changed) since the last:
    -- the rows the loader landed, and the exports read here in place (direct_export_reads)
    select
        {%- for column in landing_columns %}
        {%- if column == 'file_fingerprint' %}
        {{ landed_file_fingerprint('landed') }} as file_fingerprint,
        {%- else %}
        landed.{{ column }}{{ ',' if not loop.last }}
        {%- endif %}
        {%- endfor %}
    from {{ ref('base_exports__rows') }} as landed
    where {{ new_file_versions('landed.source_file') }}
    {{ direct_export_reads(landing_columns) }}
),

{{ stage_export_rows('fresh') }}
