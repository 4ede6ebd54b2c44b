{% test unique_combination(model, columns) %}
    {#- Rows whose `columns` together repeat another row's (rows with a null among them are
        not compared, as in dbt's `unique`): one failing row per repeated key. -#}
    select {{ columns | join(', ') }}, count(*) as occurrences
    from {{ model }}
    where {% for column in columns %}{{ column }} is not null{{ " and " if not loop.last }}{% endfor %}
    group by {{ columns | join(', ') }}
    having count(*) > 1
{% endtest %}
