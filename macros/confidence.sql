{#-
    95% confidence intervals (docs/rules.md, "Error bars"). Rounds of one query are not
    independent, so a mean's standard error is clustered by Query ID; a share of queries
    (consistency, pass@k, pass^k) has one value per query and gets a Wilson interval.
-#}

{% macro ci_z() -%}
    {#- The two-sided 95% quantile of the normal distribution; a double, as Spark would
        otherwise round its decimal products to a few places. -#}
    cast(1.959963984540054 as double)
{%- endmacro %}


{% macro ci_alpha() -%}
    {#- The level those 95% intervals leave out: a test reported beside them (McNemar's) is
        significant below it. -#}
    0.05
{%- endmacro %}


{% macro query_cluster(query_id='query_id', record_no='record_no') -%}
    {#- The cluster an item's errors add up in: its Query ID; an item without one is a query of
        its own. -#}
    coalesce({{ query_id }}, '#' || {{ record_no }})
{%- endmacro %}


{% macro clustered_standard_errors(items, group_by, cluster, values, stratum=none, bound=none) %}
    {#-
        Per group of `items`: the standard error of each figure in `values`, clustered by
        `cluster`. The figure is the mean over `stratum` (the rounds) of each stratum's mean
        of the column, as set figures are (a round figure: one stratum, the plain mean).
        Linearised (delta method): each item's influence is (value - its stratum's mean) /
        (strata × the stratum's count); influences add up per cluster; the variance is
        G / (G - 1) × the sum of the squared cluster totals, G the clusters with a value
        (CR1, as Stata's `vce(cluster)`). Null below 2 clusters. Sums are exact (exact_sum),
        so the figure is the same from one build to the next. `bound`: the largest magnitude
        the callers' rules allow a value (scores 5, response times var('max_response_time_sec'));
        an influence and a cluster total are then at most twice it, and each sum is one
        decimal sum (exact_sum). Output: the group columns, `cluster_count`, and per value
        `<value>_estimate` (the figure) and `<value>_se`.
    -#}
    {%- set total_bound = none if bound is none else 2 * bound %}
    {%- set keys = group_by | join(', ') %}
    with se_items as (
        select
            {{ keys }},
            {{ stratum if stratum else "''" }} as se_stratum,
            {{ cluster }} as se_cluster,
            {%- for value in values %}
            {{ value }}::double as {{ value }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ items }}
    ),

    se_strata as (
        select
            {{ keys }},
            se_stratum,
            {%- for value in values %}
            count({{ value }}) as {{ value }}_n,
            {{ mean_score(value) }} as {{ value }}_mean{{ ',' if not loop.last }}
            {%- endfor %}
        from se_items
        group by {{ keys }}, se_stratum
    ),

    se_groups as (
        select
            {{ keys }},
            {%- for value in values %}
            count({{ value }}_mean) as {{ value }}_strata,
            {{ mean_in_order(value ~ '_mean', 'se_stratum') }} as {{ value }}_estimate{{ ',' if not loop.last }}
            {%- endfor %}
        from se_strata
        group by {{ keys }}
    ),

    se_clusters as (
        select
            {%- for key in group_by %}
            se_items.{{ key }},
            {%- endfor %}
            se_items.se_cluster,
            {%- for value in values %}
            any_value(se_groups.{{ value }}_estimate) as {{ value }}_estimate,
            {{ exact_sum(
                '(se_items.' ~ value ~ ' - se_strata.' ~ value ~ '_mean) / (se_groups.'
                    ~ value ~ '_strata * se_strata.' ~ value ~ '_n)', total_bound) }} as {{ value }}_total{{ ',' if not loop.last }}
            {%- endfor %}
        -- the strata first: DuckDB estimates them as many as the items and, on that tie,
        -- built its hash table from the items (1M rows: 748 strata; alone 2.8 -> 2.3 s)
        from se_strata
        inner join se_items
            on {% for key in group_by %}se_strata.{{ key }} is not distinct from se_items.{{ key }} and {% endfor %}se_strata.se_stratum is not distinct from se_items.se_stratum
        inner join se_groups
            on {% for key in group_by %}se_groups.{{ key }} is not distinct from se_items.{{ key }}{{ ' and ' if not loop.last }}{% endfor %}
        group by {% for key in group_by %}se_items.{{ key }}, {% endfor %}se_items.se_cluster
    )

    select
        {{ keys }},
        count(*) as cluster_count,
        {%- for value in values %}
        any_value({{ value }}_estimate) as {{ value }}_estimate,
        case
            when count({{ value }}_total) > 1
                then sqrt(
                    count({{ value }}_total) / (count({{ value }}_total) - 1.0)
                    * {{ exact_sum(value ~ '_total * ' ~ value ~ '_total',
                        none if bound is none else total_bound * total_bound) }}
                )
        end as {{ value }}_se{{ ',' if not loop.last }}
        {%- endfor %}
    from se_clusters
    group by {{ keys }}
{% endmacro %}


{% macro normal_ci(estimate, se, bound, floor=none, ceiling=none) -%}
    {#- One bound ('low' or 'high') of estimate ± z × se, kept within [floor, ceiling]
        (the figure's scale): null without a standard error. -#}
    {%- set raw = '(' ~ estimate ~ (' - ' if bound == 'low' else ' + ') ~ ci_z() ~ ' * ' ~ se ~ ')' %}
    {%- if bound == 'low' and floor is not none %}{% set raw = 'greatest(' ~ floor ~ ', ' ~ raw ~ ')' %}{% endif %}
    {%- if bound == 'high' and ceiling is not none %}{% set raw = 'least(' ~ ceiling ~ ', ' ~ raw ~ ')' %}{% endif %}
    case when {{ se }} is not null and {{ estimate }} is not null then {{ raw }} end
{%- endmacro %}


{% macro wilson_ci(share, trials, bound, scale=1) -%}
    {#- One bound ('low' or 'high') of the Wilson score interval of a share of `trials`
        independent units (queries), times `scale` (5 for a 0–5 score that is 5 × a share):
        it stays within [0, scale] and keeps its width at a share of 0 or 1, where a normal
        interval collapses to a point. -#}
    {%- set z = ci_z() %}
    {%- set n = '(' ~ trials ~ ')::double' %}
    {%- set p = '(' ~ share ~ ')' %}
    case
        when {{ trials }} > 0 and {{ share }} is not null then {{ scale }} * (
            {{ p }} + {{ z }} * {{ z }} / (2 * {{ n }})
            {{ '-' if bound == 'low' else '+' }} {{ z }} * sqrt(
                {{ p }} * (1 - {{ p }}) / {{ n }} + {{ z }} * {{ z }} / (4 * {{ n }} * {{ n }})
            )
        ) / (1 + {{ z }} * {{ z }} / {{ n }})
    end
{%- endmacro %}


{% macro figure_intervals(figures, errors) -%}
    {#- The 95% interval columns of round_scores and set_scores (`figures` a relation with the
        figures, `errors` its int_scoring__figure_errors row), then the platform total and
        its interval. The speed points' interval is the mean time's interval through the
        bands (fewer points for more seconds: the low bound comes from the high time). -#}
    {%- for column in ['intent_score', 'accuracy_score', 'stability_score'] %}
    {{ normal_ci(figures ~ '.' ~ column, errors ~ '.' ~ column ~ '_se', 'low', 0, 5) }} as {{ column }}_ci_low,
    {{ normal_ci(figures ~ '.' ~ column, errors ~ '.' ~ column ~ '_se', 'high', 0, 5) }} as {{ column }}_ci_high,
    {%- endfor %}
    {%- set time_high = normal_ci(figures ~ '.mean_response_time_sec', errors ~ '.mean_response_time_sec_se', 'high') %}
    {%- set time_low = normal_ci(figures ~ '.mean_response_time_sec', errors ~ '.mean_response_time_sec_se', 'low', 0) %}
    {{ time_low }} as mean_response_time_sec_ci_low,
    {{ time_high }} as mean_response_time_sec_ci_high,
    {{ speed_points(time_high, figures ~ '.speed_rubric') }} as speed_points_ci_low,
    {{ speed_points(time_low, figures ~ '.speed_rubric') }} as speed_points_ci_high,
    {{ normal_ci(figures ~ '.item_speed_points_mean', errors ~ '.item_speed_points_mean_se', 'low', 0, 5) }} as item_speed_points_mean_ci_low,
    {{ normal_ci(figures ~ '.item_speed_points_mean', errors ~ '.item_speed_points_mean_se', 'high', 0, 5) }} as item_speed_points_mean_ci_high,
    {{ figures }}.total_score,
    {{ normal_ci(figures ~ '.total_score', errors ~ '.total_score_se', 'low', 0, 5) }} as total_score_ci_low,
    {{ normal_ci(figures ~ '.total_score', errors ~ '.total_score_se', 'high', 0, 5) }} as total_score_ci_high
{%- endmacro %}
