{% test unique_combination_of_columns(model, combination_of_columns) %}
    {#- No two rows share the combination of `combination_of_columns` (a model's key, its
        grain): one failing row per repeated combination, with how often it occurs. A null
        counts as a value, so two rows alike but for being null in the same key column fail.
        It mirrors dbt_utils' test of the same name and argument (which the
        dbt-project-evaluator recognises as a primary-key test), because `dbt deps` cannot
        reach the package hub here. A table with a row per run, file or figure holds its key
        as a `primary_key` constraint instead; this test is for views and for tables whose
        rows grow with the records, where DuckDB's index would cost more than the scan
        (docs/builds.md). -#}
    select {{ combination_of_columns | join(', ') }}, count(*) as occurrences
    from {{ model }}
    group by {{ combination_of_columns | join(', ') }}
    having count(*) > 1
{% endtest %}
