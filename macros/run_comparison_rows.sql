{% macro run_comparison_rows(changes) %}
    {#-
        Per pair of runs and metric: the paired difference head - base with its 95% interval,
        and the exact McNemar test of its pass/fail flips (docs/rules.md, "Is a change
        real?"). `changes` is a relation of item_changes rows; only items in both runs count.
        - Item metrics (intent, accuracy, stability, speed, total: item_scores' 0-5 scores,
          intent after LLM precedence as item_changes compares it): the mean over rounds of
          each round's mean difference, as set figures are means of round figures; its
          standard error clustered by query (macros/confidence.sql). An item passes at
          var('consistency_pass_score').
        - Query metrics over the query's paired rounds scored on both sides: consistency
          (5 when its rounds agree, 0 when not; queries with 2+ such rounds), pass_any_round
          (pass@k: 1 when a round passed) and pass_all_rounds (pass^k): the mean difference
          over queries. A query passes at 5 or 1.
        regressed: passed in base, fails in head; improved: the reverse. mcnemar_p: the
        two-sided exact p-value of regressed against improved (1 with no flip).
    -#}
    {%- set pass_score = var('consistency_pass_score') %}
    {%- set item_metrics = {
        'intent': 'intent_score', 'accuracy': 'accuracy_score',
        'stability': 'stability_score', 'speed': 'speed_points', 'total': 'total_score'} %}
    with paired as (
        select
            changes.agent,
            changes.head_file,
            changes.base_file,
            coalesce(changes.query_id, changes.query_text) as query_cluster,
            changes.round_label,
            changes.base_score as base_intent,
            changes.head_score as head_intent,
            {%- for metric, column in item_metrics.items() if metric != 'intent' %}
            changes.base_{{ column }} as base_{{ metric }},
            changes.head_{{ column }} as head_{{ metric }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ changes }} as changes
        where changes.base_record_no is not null and changes.head_record_no is not null
    ),

    queries as (
        select
            agent,
            head_file,
            base_file,
            query_cluster,
            count(*) as round_count,
            bool_and(base_intent >= {{ pass_score }}) as base_all,
            bool_or(base_intent >= {{ pass_score }}) as base_any,
            bool_and(head_intent >= {{ pass_score }}) as head_all,
            bool_or(head_intent >= {{ pass_score }}) as head_any
        from paired
        where base_intent is not null and head_intent is not null
        group by agent, head_file, base_file, query_cluster
    ),

    metric_values as (
        {%- for metric in item_metrics %}
        select
            agent, head_file, base_file, query_cluster, round_label,
            '{{ metric }}' as metric,
            base_{{ metric }}::double as base_value,
            head_{{ metric }}::double as head_value,
            base_{{ metric }} >= {{ pass_score }} as base_passed,
            head_{{ metric }} >= {{ pass_score }} as head_passed
        from paired
        where base_{{ metric }} is not null and head_{{ metric }} is not null
        union all
        {%- endfor %}
        select
            agent, head_file, base_file, query_cluster, null as round_label,
            'consistency' as metric,
            case when base_all or not base_any then 5.0 else 0.0 end as base_value,
            case when head_all or not head_any then 5.0 else 0.0 end as head_value,
            base_all or not base_any as base_passed,
            head_all or not head_any as head_passed
        from queries
        where round_count >= 2
        union all
        select
            agent, head_file, base_file, query_cluster, null as round_label,
            'pass_any_round' as metric,
            case when base_any then 1.0 else 0.0 end as base_value,
            case when head_any then 1.0 else 0.0 end as head_value,
            base_any as base_passed,
            head_any as head_passed
        from queries
        union all
        select
            agent, head_file, base_file, query_cluster, null as round_label,
            'pass_all_rounds' as metric,
            case when base_all then 1.0 else 0.0 end as base_value,
            case when head_all then 1.0 else 0.0 end as head_value,
            base_all as base_passed,
            head_all as head_passed
        from queries
    ),

    differences as (
        select *, head_value - base_value as difference from metric_values
    ),

    errors as (
        {{ clustered_standard_errors(
            'differences', ['agent', 'head_file', 'base_file', 'metric'], 'query_cluster',
            ['base_value', 'head_value', 'difference'], stratum='round_label', bound=5) }}
    ),

    flips as (
        select
            agent,
            head_file,
            base_file,
            metric,
            count(*) as paired_count,
            count(*) filter (where base_passed and not head_passed) as regressed,
            count(*) filter (where not base_passed and head_passed) as improved
        from differences
        group by agent, head_file, base_file, metric
    )

    select
        flips.agent,
        flips.head_file,
        flips.base_file,
        flips.metric,
        flips.paired_count,
        errors.cluster_count as query_count,
        errors.base_value_estimate as base_value,
        errors.head_value_estimate as head_value,
        errors.difference_estimate as delta,
        errors.difference_se as delta_se,
        {{ normal_ci('errors.difference_estimate', 'errors.difference_se', 'low') }} as delta_ci_low,
        {{ normal_ci('errors.difference_estimate', 'errors.difference_se', 'high') }} as delta_ci_high,
        flips.regressed,
        flips.improved,
        case
            when flips.regressed + flips.improved = 0 then 1.0
            -- to 12 places: the log-space sum is off in its last bits (0.25000000000000006)
            else round(least(1.0, 2 * {{ binomial_cdf_half(
                'least(flips.regressed, flips.improved)', 'flips.regressed + flips.improved') }}), 12)
        end as mcnemar_p
    from flips
    inner join errors
        on errors.agent = flips.agent
        and errors.head_file = flips.head_file
        and errors.base_file = flips.base_file
        and errors.metric = flips.metric
{% endmacro %}


{% macro create_run_comparisons_between() %}
    {#-
        A table macro in the warehouse, so that `score-report compare --base A --head B` and
        `check` compare any two runs with exactly the SQL of the run_comparisons mart:
        select * from run_comparisons_between('<base file>', '<head file>').
    -#}
    {{ return(adapter.dispatch('create_run_comparisons_between', 'agent_scoring')()) }}
{% endmacro %}

{% macro duckdb__create_run_comparisons_between() %}
    create or replace macro run_comparisons_between(base, head) as table
    {{ run_comparison_rows('item_changes_between(base, head)') }}
{% endmacro %}

{% macro spark__create_run_comparisons_between() %}
    {#- not on Spark yet: compare any two runs on the DuckDB warehouse -#}
    select 1
{% endmacro %}
