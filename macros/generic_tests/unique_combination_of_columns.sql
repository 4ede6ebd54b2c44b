{% test unique_combination_of_columns(model, combination_of_columns) %}
    {#- No two rows share the combination of `combination_of_columns` (a model's key, its
        grain): one failing row per repeated combination, with how often it occurs. A null
        counts as a value, so two rows alike but for being null in the same key column fail.
        It mirrors dbt_utils' test of the same name and argument (which the
        dbt-project-evaluator recognises as a primary-key test), because `dbt deps` cannot
        reach the package hub here. It scans even where a contract's unique constraint
        already holds the key: only small tables have one, and asking the catalog first
        cost every build more than the scans it saved. -#}
    select {{ combination_of_columns | join(', ') }}, count(*) as occurrences
    from {{ model }}
    group by {{ combination_of_columns | join(', ') }}
    having count(*) > 1
{% endtest %}
