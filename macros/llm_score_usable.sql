{% macro llm_score_usable(score, status) -%}
    {#- SCORING §2.3.4: a recorded LLM 점수 in [0, 5] whose LLM 상태 is not a failure. -#}
    (
        {{ score }} between 0 and 5
        and coalesce(lower(trim({{ status }})), '') not in (
            {%- for s in var('llm_failed_statuses') %}'{{ s }}'{{ ", " if not loop.last }}{% endfor -%}
        )
    )
{%- endmacro %}
