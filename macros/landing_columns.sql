{% macro export_text_columns() -%}
    {#- The cells of an export record staging reads, by English column name (the landing
        table raw.export_rows has one for each; so does an export staging reads in place,
        or null). Raw JSON aside. -#}
    {{ return([
        'run_id', 'item_id', 'ordinal', 'query_id', 'query_text', 'expected_result', 'category',
        'round_label', 'executed_at', 'track', 'response_text', 'error_text', 'logic_result',
        'logic_reason', 'llm_status', 'llm_model', 'llm_score', 'llm_comment',
        'llm_intent_score', 'llm_accuracy_score', 'llm_consistency_score',
        'llm_speed_single_score', 'llm_speed_multi_score', 'llm_stability_score',
        'llm_output_json', 'prompt_version', 'input_hash',
    ]) }}
{%- endmacro %}
