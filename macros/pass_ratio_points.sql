{% macro pass_ratio_points(ratio) -%}
    {#- Seed 001 §2-3: a checklist pass ratio to 0-5 points by var('pass_ratio_bands'), best
        band first (1.00 → 5, 0.75 → 4, 0.5 → 3, 0.25 → 2, above 0 → 1, 0 → 0). -#}
    case
        when {{ ratio }} is null then null
        {%- for band in var('pass_ratio_bands') %}
        when {{ ratio }} {{ '>' if band.get('above') else '>=' }} {{ band['from'] }} then {{ band['points'] }}
        {%- endfor %}
        else 0
    end
{%- endmacro %}
