{{ config_run_pair_report('compare_latency_rows') }}
-- The compare report's 응답 시간 변화 and the gate's max_p90_latency_increase: per run with a
-- previous run and speed rubric, p50 / p90 in both runs and the p90's change in percent
-- (macros/run_pair_reports.sql; report_compare_latency_between(base, head) for any two runs).

{{ compare_latency_rows() }}
