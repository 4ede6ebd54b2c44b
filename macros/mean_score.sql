{% macro mean_score(column) -%}
    {#- Means are kept at full precision; reports round for display only. -#}
    avg({{ column }})::double
{%- endmacro %}
