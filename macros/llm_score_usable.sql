{% macro llm_score_usable(score, status_class='llm_status_class') -%}
    {#-
        SCORING §2.3.4: an LLM score is used when it is a number in [0, 5] and LLM 상태 does
        not say the LLM grading failed (`status_class`: seeds/llm_statuses.csv's meaning of
        the row's LLM 상태; unknown and not_evaluated are no failure).
    -#}
    (
        {{ score }} between 0 and 5
        and coalesce({{ status_class }}, 'not_evaluated') <> 'failed'
    )
{%- endmacro %}
