{% macro score_source(status, llm_score, heuristic_score) -%}
    {#- SCORING §2.3: error/empty gate to 0 first; then a usable LLM score; then the rule. -#}
    case
        when {{ status }} in ('error', 'empty') then 'gate'
        when {{ llm_score }} is not null then 'llm'
        when {{ heuristic_score }} is not null then 'heuristic'
        else 'none'
    end
{%- endmacro %}

{% macro item_score(status, llm_score, heuristic_score) -%}
    case
        when {{ status }} in ('error', 'empty') then 0
        else coalesce({{ llm_score }}, {{ heuristic_score }})
    end::double
{%- endmacro %}

{% macro usable_llm(column) -%}
    case when {{ llm_score_usable(column) }} then {{ column }} end
{%- endmacro %}

{% macro item_score_columns(llm_score_metrics=['intent', 'accuracy']) -%}
    {#-
        The score columns every agent's item model ends with, from its `status`,
        `heuristic_score`, `response_time_sec`, `speed_rubric` and the row's LLM scores
        (SCORING §2.3, §2.5, §3). Per metric, the gate first (error/empty: 0), then a usable
        LLM score for that metric (the platform's per-metric columns; for intent and accuracy
        the older single LLM 점수 too, for the metrics in `llm_score_metrics`), then the rule.
        Each metric records where its figure came from: gate, llm, heuristic (the rule) or
        none.
    -#}
    {%- set old = 'llm_score' -%}
    {%- set intent_llm = 'coalesce(llm_intent_score, ' ~ (old if 'intent' in llm_score_metrics else 'null') ~ ')' -%}
    {%- set accuracy_llm = 'coalesce(llm_accuracy_score, ' ~ (old if 'accuracy' in llm_score_metrics else 'null') ~ ')' -%}
    {%- set speed_band = speed_points('response_time_sec', 'speed_rubric') -%}
    {{ score_source('status', intent_llm, 'heuristic_score') }} as score_source,
    {{ item_score('status', intent_llm, 'heuristic_score') }} as intent_score,
    {{ score_source('status', accuracy_llm, 'heuristic_score') }} as accuracy_source,
    {{ item_score('status', accuracy_llm, 'heuristic_score') }} as accuracy_score,
    case when status in ('error', 'empty') then 'gate'
        when llm_stability_score is not null then 'llm' else 'heuristic' end as stability_source,
    case when status in ('error', 'empty') then 0
        else coalesce(llm_stability_score, 5) end as stability_score,
    response_time_sec,
    speed_rubric,
    case when llm_speed_score is not null then 'llm'
        when response_time_sec is not null then 'heuristic' else 'none' end as speed_source,
    coalesce(llm_speed_score, {{ speed_band }}) as speed_points,
    {#- the rules alone, whatever the LLM said: what the LLM's scores are checked against -#}
    {{ item_score('status', 'null', 'heuristic_score') }} as rule_intent_score,
    {{ item_score('status', 'null', 'heuristic_score') }} as rule_accuracy_score,
    case when status in ('error', 'empty') then 0 else 5 end as rule_stability_score,
    {{ speed_band }} as rule_speed_score
{%- endmacro %}


{% macro item_columns() -%}
    {#- The item scores' columns in the public order: int_scoring__item_scores reads each
        agent's model by these names (an agent may order its own differently) and
        item_scores publishes them. -#}
    {{ return([
    'agent', 'source_file', 'file_fingerprint', 'record_no', 'run_id', 'item_id', 'query_id',
    'round_label', 'round_room', 'round_repeat', 'track', 'category', 'query_text',
    'executed_at', 'status', 'error_message', 'partial_phrase', 'reply_excerpt',
    'raw_json_is_valid', 'used_response_fallback', 'check_count', 'check_passed', 'pass_ratio',
    'heuristic_score', 'llm_score', 'score_source', 'intent_score', 'accuracy_score',
    'stability_score', 'response_time_sec', 'speed_rubric', 'speed_points', 'accuracy_source',
    'stability_source', 'speed_source', 'llm_status', 'llm_status_class', 'llm_intent_score',
    'llm_accuracy_score', 'llm_consistency_score', 'llm_stability_score', 'llm_speed_score',
    'response_time_problem', 'scored_at', 'rule_intent_score', 'rule_accuracy_score',
    'rule_stability_score', 'rule_speed_score', 'total_score', 'llm_model', 'prompt_version'
    ]) }}
{%- endmacro %}
