{{ config_run_pair_report('previous_run_rows') }}
-- The report's "이전 실행 대비" and the compare report's headline table: per run with a
-- previous run (runs.previous_source_file), the change of each headline figure, how many
-- items regressed or improved (item_changes), and whether the runs were graded alike
-- (macros/run_pair_reports.sql; report_previous_runs_between(base, head) for any two runs).

{{ previous_run_rows() }}
