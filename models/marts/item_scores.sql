{{ config(materialized='view') }}
-- The public item scores: every agent's rows (int_scoring__item_scores) under this mart's
-- contract, whose rows_hold test checks the row rules.

{%- set item_columns = [
    'agent', 'source_file', 'file_fingerprint', 'record_no', 'run_id', 'item_id', 'query_id',
    'round_label', 'round_room', 'round_repeat', 'track', 'category', 'query_text',
    'executed_at', 'status', 'error_message', 'partial_phrase', 'reply_excerpt',
    'raw_json_is_valid', 'used_response_fallback', 'check_count', 'check_passed', 'pass_ratio',
    'heuristic_score', 'llm_score', 'score_source', 'intent_score', 'accuracy_score',
    'stability_score', 'response_time_sec', 'speed_rubric', 'speed_points', 'accuracy_source',
    'stability_source', 'speed_source', 'llm_status', 'llm_status_class', 'llm_intent_score',
    'llm_accuracy_score', 'llm_consistency_score', 'llm_stability_score', 'llm_speed_score',
    'response_time_problem', 'scored_at', 'rule_intent_score', 'rule_accuracy_score',
    'rule_stability_score', 'rule_speed_score', 'total_score', 'llm_model', 'prompt_version',
] %}

select
    {{ item_columns | join(',\n    ') }}
from {{ ref('int_scoring__item_scores') }}
