{{ config_run_pair_report('compare_change_rows') }}
-- The compare report's sections: per run with a previous run and kind of change
-- (item_changes.change), its title and how many items changed so
-- (macros/run_pair_reports.sql; report_compare_changes_between(base, head) for any two runs).

{{ compare_change_rows() }}
