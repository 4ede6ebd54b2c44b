{{ config(materialized='view') }}
-- Every registered agent's item scores (var agents lists them): a view of each agent's
-- int_<agent>__item_scores, the one parent of every scoring model and mart (item_scores
-- is its public face). As a table it was a second copy of every item (1M rows: 1.9 s of a
-- clean build).

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

-- by name: an agent's model may order its columns differently
{%- for agent in var('agents') %}
select
    {{ item_columns | join(',\n    ') }}
from {{ ref('int_' ~ agent ~ '__item_scores') }}
{{ "union all" if not loop.last }}
{%- endfor %}
