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


{% macro exact_sum(expression, bound=none) -%}
    {#- The sum of a double expression, exact to 18 decimal places so that it does not depend
        on the order a parallel scan meets the rows (as mean_score); a value too large for
        decimal(38, 18) falls back to a double sum. With `bound`, the largest magnitude the
        caller's rules allow the expression, at most 1e9 (the sum of 1e11 rows still fits),
        it is one decimal sum: the fallback's two counts and second sum cost more than the
        sum itself (1M items: the figure errors 5.3 -> 3.5 s of CPU, the same figures), and
        a value beyond the bound fails the cast, loudly. -#}
    {%- if bound is not none and bound | float <= 1e9 %}
    sum(cast(({{ expression }})::double as decimal(38, 18)))::double
    {%- else %}
    case
        when count(({{ expression }})::double)
            = count(try_cast(({{ expression }})::double as decimal(38, 18)))
            then sum(try_cast(({{ expression }})::double as decimal(38, 18)))::double
        else sum(({{ expression }})::double)
    end
    {%- endif %}
{%- endmacro %}
