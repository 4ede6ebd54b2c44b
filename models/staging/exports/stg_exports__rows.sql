-- Every export record, with the row rules applied (SCORING §0): a record
-- that cannot be scored gets a reject_code and a reason; int_exports__results hands only the
-- others to the agents' models. The rejected ones surface in the rejected_rows mart. A
-- repeated Item ID is a rule across records: a post-hook applies it (reject_repeated_items).
-- DuckDB reads every export here, where it lies or from the UTF-8 copy the loader made
-- (export_loads.read_path), tolerantly, and parses Raw JSON in the same pass; only
-- what the agents score of it is kept (raw_json_columns()), never the multi-kB text. Its
-- hooks number and locate the rejected records, or refuse a file
-- (macros/direct_export_reads.sql: list_direct_reads, settle_direct_reads). The Spark
-- target reads these rows as DuckDB staged them (docs/spark.md).
{{ config_incremental_by_file('landed',
    pre_hook=["{{ list_direct_reads() }}"],
    post_hook=["{{ settle_direct_reads() }}", "{{ reject_repeated_items() }}"],
    last_hooks=["{{ copy_to_landing('export_files', export_listing()) }}",
                "{{ copy_to_landing('export_rows', columns=spark_export_row_columns()) }}"]) }}
{%- do after_load() %}
{%- do check_agent_shapes() %}
{{ export_rows() }}
