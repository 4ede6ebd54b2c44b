-- Every parsed export record with the row rules applied (SCORING §0): a record that cannot
-- be scored gets a reject_code and a reason; stg_exports__results hands only the others to
-- the agents' models. The rejected ones surface in the rejected_rows mart.
-- Raw JSON is parsed here, once, while the file is read; only what the agents score of it
-- is stored (raw_json_columns()), never the multi-kB text.
{{ config_incremental_by_file(rules_scope='read') }}
{#- Row order is never relied on (record_no is a column), so the insert may run in parallel:
    about twice as fast on 2 cores. The per-file row_number() still sees file order.
    Files are read in batches (vars.read_batch_files / read_batch_bytes): one statement
    over hundreds of files holds them all in memory. The model reads the first batch; a
    post-hook inserts the others. A repeated Item ID is marked after the inserts
    (reject_repeated_item_ids): a window here would hold every column of every row. -#}
{{ config(
    pre_hook="set preserve_insertion_order = false",
    post_hook=[
        "{{ insert_remaining_export_rows() }}",
        "reset preserve_insertion_order",
        "{{ reject_repeated_item_ids() }}",
    ],
) }}
{%- set batches = export_read_batches(only_changed_files=(this is not none and is_incremental())) %}

{{ export_rows_sql(batches[0] if batches else []) }}

