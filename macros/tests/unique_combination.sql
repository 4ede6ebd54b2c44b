{% test unique_combination(model, columns) %}
    {#- The combination of `columns` identifies a row (dbt_utils is not reachable offline). -#}
    select {{ columns | join(', ') }}, count(*) as rows_with_key
    from {{ model }}
    group by {{ columns | join(', ') }}
    having count(*) > 1
{% endtest %}
