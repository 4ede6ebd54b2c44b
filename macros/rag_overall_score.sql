{% macro rag_overall_score(faithfulness, relevance, completeness, hallucination_detected, hallucination_penalty) -%}
    {#-
        Seed 003 / the team's judge: the three 1–5 dimensions scaled to 0–1, minus the
        hallucination penalty, floored at 0. Rounded to 10 places so float noise cannot
        move an answer across the pass threshold. Null when a dimension is null.
    -#}
    round(
        greatest(
            0,
            ({{ faithfulness }} + {{ relevance }} + {{ completeness }}) / 15.0::double
            - {{ hallucination_penalty }} * (case when {{ hallucination_detected }} then 1 else 0 end)
        ),
        10
    )
{%- endmacro %}
