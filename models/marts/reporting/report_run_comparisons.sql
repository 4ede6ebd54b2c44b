{{ config_run_pair_report('run_comparison_verdicts') }}
-- The significance lines of the report and of the compare report: each run's run_comparisons
-- rows against its previous run, in the reports' order, named, and judged at 95%
-- (macros/run_pair_reports.sql; report_run_comparisons_between(base, head) for any two runs).

{{ run_comparison_verdicts() }}
