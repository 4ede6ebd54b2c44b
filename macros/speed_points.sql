{% macro speed_points(seconds, rubric) -%}
    {#-
        Seconds to 0-5 points on a rubric from var('speed_rubrics'): each list holds the
        inclusive upper bounds for 5, 4, 3, 2 and 1 points; slower is 0, missing stays null.
        `rubric` is a SQL expression giving 'single' or 'multi'.
    -#}
    {%- set rubrics = var('speed_rubrics') -%}
    case
        when {{ seconds }} is null then null
        {%- for name, bounds in rubrics.items() %}
        when {{ rubric }} = '{{ name }}' then case
            {%- for bound in bounds %}
            when {{ seconds }} <= {{ bound }} then {{ 5 - loop.index0 }}
            {%- endfor %}
            else 0
        end
        {%- endfor %}
    end
{%- endmacro %}
