{% macro pass_ratio_points(ratio) -%}
    {#- Seed 001 §2-3: checklist pass ratio to 0-5; lower bounds inclusive, 0 < r < 0.25 is 1. -#}
    case
        when {{ ratio }} is null then null
        when {{ ratio }} >= 1.0 then 5
        when {{ ratio }} >= 0.75 then 4
        when {{ ratio }} >= 0.5 then 3
        when {{ ratio }} >= 0.25 then 2
        when {{ ratio }} > 0 then 1
        else 0
    end
{%- endmacro %}
