{% macro mean_score(column) -%}
    {#-
        Means are summed exactly (as decimals, 9 places) so they do not depend on the order
        a parallel scan meets the rows: a double sum can differ in its last bits from one
        build to the next. Only a value too large for decimal(38, 9), such as a response time
        of 1e300 s, falls back to a double mean. Reports round for display only.
    -#}
    case
        when count({{ column }}) = count(try_cast({{ column }} as decimal(38, 9)))
            then avg(try_cast({{ column }} as decimal(38, 9)))::double
        else avg({{ column }})::double
    end
{%- endmacro %}
