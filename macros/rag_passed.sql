{% macro rag_passed(category, overall_score, hallucination_detected, behavior_correct, min_overall_score) -%}
    {#-
        The team's verdict: an in-domain answer passes at overall_score >= the threshold and
        no hallucination; out-of-domain and edge-case answers pass when the judge says the
        behaviour was correct. Anything unknown is a fail, never a pass.
    -#}
    coalesce(
        case
            when {{ category }} = 'in_domain'
                then {{ overall_score }} >= {{ min_overall_score }} and not {{ hallucination_detected }}
            else {{ behavior_correct }}
        end,
        false
    )
{%- endmacro %}
