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

{% macro item_score_columns() -%}
    {#-
        The score columns every agent's item model ends with, from its `status`, `llm_score`,
        `heuristic_score`, `response_time_sec` and `speed_rubric` (SCORING §2.3, §2.5, §3).
    -#}
    {{ score_source('status', 'llm_score', 'heuristic_score') }} as score_source,
    {{ item_score('status', 'llm_score', 'heuristic_score') }} as intent_score,
    {{ item_score('status', 'llm_score', 'heuristic_score') }} as accuracy_score,
    case when status in ('error', 'empty') then 0 else 5 end as stability_score,
    response_time_sec,
    speed_rubric,
    {{ speed_points('response_time_sec', 'speed_rubric') }} as speed_points
{%- endmacro %}
