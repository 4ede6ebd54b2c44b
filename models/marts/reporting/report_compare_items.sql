{{ config_run_pair_report('compare_item_rows') }}
-- The compare report's items: per run with a previous run, every item of item_changes in
-- the report's order, why it fell short, the checks that flipped and how much slower it
-- answered (macros/run_pair_reports.sql; report_compare_items_between(base, head) for any
-- two runs).

{{ compare_item_rows() }}
