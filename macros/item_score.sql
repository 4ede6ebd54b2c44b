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
