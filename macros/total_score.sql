{% macro total_score(intent, accuracy, stability, consistency) -%}
    {#- The team's platform's total (종합 점수) of an item: the mean of intent, accuracy,
        stability and, when the export gives one, its 일관성 score; latency is left out.
        Null when the item has no intent or accuracy score (nothing to total). -#}
    case when {{ intent }} is not null and {{ accuracy }} is not null then
        ({{ intent }} + {{ accuracy }} + {{ stability }} + coalesce({{ consistency }}, 0))
        / (3 + case when {{ consistency }} is not null then 1 else 0 end)
    end::double
{%- endmacro %}
