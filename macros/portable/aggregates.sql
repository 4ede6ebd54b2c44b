{#- Aggregates whose spelling differs by engine, through adapter.dispatch. -#}

{% macro string_agg_sorted(expression, separator, distinct=false, filter=none) -%}
    {#- The values of `expression` (over the rows `filter` keeps) joined by `separator` in
        sorted order; null when there is none. -#}
    {{ return(adapter.dispatch('string_agg_sorted', 'agent_scoring')(expression, separator, distinct, filter)) }}
{%- endmacro %}

{% macro duckdb__string_agg_sorted(expression, separator, distinct, filter) -%}
    string_agg({{ 'distinct ' if distinct }}{{ expression }}, {{ separator }} order by {{ expression }})
    {{- ' filter (where ' ~ filter ~ ')' if filter }}
{%- endmacro %}

{% macro spark__string_agg_sorted(expression, separator, distinct, filter) -%}
    {%- set where = ' filter (where ' ~ filter ~ ')' if filter else '' -%}
    case when count({{ expression }}){{ where }} > 0 then array_join(array_sort(
        {{ 'collect_set' if distinct else 'collect_list' }}({{ expression }}){{ where }}
    ), {{ separator }}) end
{%- endmacro %}


{% macro percentile_cont(expression, fraction, filter=none) -%}
    {#- The continuous (interpolated) percentile of `expression` over the rows `filter` keeps. -#}
    {{ return(adapter.dispatch('percentile_cont', 'agent_scoring')(expression, fraction, filter)) }}
{%- endmacro %}

{% macro duckdb__percentile_cont(expression, fraction, filter) -%}
    quantile_cont({{ expression }}, {{ fraction }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
{%- endmacro %}

{% macro spark__percentile_cont(expression, fraction, filter) -%}
    percentile_cont({{ fraction }}) within group (order by {{ expression }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
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

{% macro spark__mean_in_order(column, order_by) -%}
    {#- collect_list keeps the struct of a null value: skip it, as avg and list_avg do -#}
    aggregate(
        filter(
            transform(array_sort(collect_list(struct({{ order_by }} as k, {{ column }} as v))), e -> e.v),
            v -> v is not null
        ),
        cast(0 as double), (total, v) -> total + v
    ) / nullif(count({{ column }}), 0)
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

{% macro spark__percentile_nearest_rank(expression, fraction, filter) -%}
    percentile_disc({{ fraction }}) within group (order by {{ expression }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
{%- endmacro %}


{% macro string_agg_ordered(expression, separator, order_by) -%}
    {#- The values of `expression` joined by `separator` in the order of `order_by`. -#}
    {{ return(adapter.dispatch('string_agg_ordered', 'agent_scoring')(expression, separator, order_by)) }}
{%- endmacro %}

{% macro duckdb__string_agg_ordered(expression, separator, order_by) -%}
    string_agg({{ expression }}, {{ separator }} order by {{ order_by }})
{%- endmacro %}

{% macro spark__string_agg_ordered(expression, separator, order_by) -%}
    string_agg({{ expression }}, {{ separator }}) within group (order by {{ order_by }})
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

{% macro spark__binomial_cdf_half(k, n) -%}
    {#- Spark has no lgamma: log C(n, i) summed term by term -#}
    aggregate(
        transform(sequence(0, {{ k }}), i -> exp(
            case when i = 0 then cast(0 as double) else aggregate(
                sequence(1, i), cast(0 as double), (total, j) -> total + ln(({{ n }}) - j + 1) - ln(j)
            ) end - ({{ n }}) * ln(2)
        )),
        cast(0 as double), (total, p) -> total + p
    )
{%- endmacro %}


{% macro first_in_order(expression, order_by) -%}
    {#- The value of `expression` on the first row in the order of `order_by` (an order-by
        list; a key marked desc must be numeric). -#}
    {{ return(adapter.dispatch('first_in_order', 'agent_scoring')(expression, order_by)) }}
{%- endmacro %}

{% macro duckdb__first_in_order(expression, order_by) -%}
    first({{ expression }} order by {{ order_by }})
{%- endmacro %}

{% macro spark__first_in_order(expression, order_by) -%}
    {%- set keys = [] -%}
    {%- for key in order_by.split(',') -%}
        {%- set key = key | trim -%}
        {%- if key.lower().endswith(' desc') -%}
            {%- do keys.append('-(' ~ key[:-5] ~ ')') -%}
        {%- else -%}
            {%- do keys.append(key) -%}
        {%- endif -%}
    {%- endfor -%}
    min_by({{ expression }}, struct({{ keys | join(', ') }}))
{%- endmacro %}


{% macro list_in_order(expression, order_by, filter=none) -%}
    {#- The values of `expression` as a list, in the order of `order_by` (one key), over the
        rows `filter` keeps. -#}
    {{ return(adapter.dispatch('list_in_order', 'agent_scoring')(expression, order_by, filter)) }}
{%- endmacro %}

{% macro duckdb__list_in_order(expression, order_by, filter) -%}
    list({{ expression }} order by {{ order_by }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
{%- endmacro %}

{% macro spark__list_in_order(expression, order_by, filter) -%}
    transform(
        array_sort(collect_list(struct({{ order_by }} as sort_key, {{ expression }} as item))
            {{- ' filter (where ' ~ filter ~ ')' if filter }}),
        entry -> entry.item
    )
{%- endmacro %}


{% macro distinct_items_sorted(list, filter=none) -%}
    {#- The distinct items of the lists in `list` over the rows `filter` keeps, sorted. -#}
    {{ return(adapter.dispatch('distinct_items_sorted', 'agent_scoring')(list, filter)) }}
{%- endmacro %}

{% macro duckdb__distinct_items_sorted(list, filter) -%}
    list_sort(list_distinct(flatten(
        list({{ list }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
    )))
{%- endmacro %}

{% macro spark__distinct_items_sorted(list, filter) -%}
    array_sort(array_distinct(flatten(
        collect_list({{ list }}){{ ' filter (where ' ~ filter ~ ')' if filter }}
    )))
{%- endmacro %}
