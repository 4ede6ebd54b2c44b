{#- Aggregates whose spelling differs by engine, through adapter.dispatch. -#}

{% macro string_agg_sorted(expression, separator, distinct=false) -%}
    {#- The values of `expression` joined by `separator` in sorted order. -#}
    {{ return(adapter.dispatch('string_agg_sorted', 'agent_scoring')(expression, separator, distinct)) }}
{%- endmacro %}

{% macro duckdb__string_agg_sorted(expression, separator, distinct) -%}
    string_agg({{ 'distinct ' if distinct }}{{ expression }}, {{ separator }} order by {{ expression }})
{%- endmacro %}


{% macro percentile_cont(expression, fraction, filter=none) -%}
    {#- The continuous (interpolated) percentile of `expression` over the rows `filter` keeps. -#}
    {{ return(adapter.dispatch('percentile_cont', 'agent_scoring')(expression, fraction, filter)) }}
{%- endmacro %}

{% macro duckdb__percentile_cont(expression, fraction, filter) -%}
    quantile_cont({{ expression }}, {{ fraction }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
{%- endmacro %}


{% macro mean_in_order(column, order_by) -%}
    {#-
        The mean of a few values (one per round) summed in a fixed order: their double sum
        would otherwise depend on which round a parallel aggregate met first.
    -#}
    {{ return(adapter.dispatch('mean_in_order', 'agent_scoring')(column, order_by)) }}
{%- endmacro %}

{% macro duckdb__mean_in_order(column, order_by) -%}
    list_avg(list({{ column }} order by {{ order_by }}))
{%- endmacro %}


{% macro percentile_nearest_rank(expression, fraction, filter=none) -%}
    {#- The nearest-rank percentile of `expression` (the smallest value with at least
        `fraction` of the rows at or below it; no interpolation) over the rows `filter`
        keeps: how the team's platform reports p50 / p90. -#}
    {{ return(adapter.dispatch('percentile_nearest_rank', 'agent_scoring')(expression, fraction, filter)) }}
{%- endmacro %}

{% macro duckdb__percentile_nearest_rank(expression, fraction, filter) -%}
    quantile_disc({{ expression }}, {{ fraction }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
{%- endmacro %}


{% macro string_agg_ordered(expression, separator, order_by) -%}
    {#- The values of `expression` joined by `separator` in the order of `order_by`. -#}
    {{ return(adapter.dispatch('string_agg_ordered', 'agent_scoring')(expression, separator, order_by)) }}
{%- endmacro %}

{% macro duckdb__string_agg_ordered(expression, separator, order_by) -%}
    string_agg({{ expression }}, {{ separator }} order by {{ order_by }})
{%- endmacro %}



{% macro binomial_cdf_half(k, n) -%}
    {#- P(X <= k) for X ~ Binomial(n, 1/2): the tail of an exact McNemar test. Summed in log
        space (lgamma), so it stays finite for thousands of discordant pairs. -#}
    {{ return(adapter.dispatch('binomial_cdf_half', 'agent_scoring')(k, n)) }}
{%- endmacro %}

{% macro duckdb__binomial_cdf_half(k, n) -%}
    list_sum(list_transform(
        range(0, ({{ k }}) + 1),
        lambda i: exp(lgamma(({{ n }}) + 1) - lgamma(i + 1) - lgamma(({{ n }}) - i + 1) - ({{ n }}) * ln(2))
    ))
{%- endmacro %}
