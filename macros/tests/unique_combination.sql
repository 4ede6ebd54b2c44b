{% test unique_combination(model, columns, column_name=none) %}
    {#- No two rows share the same values of `columns` (rows with a null in them are skipped). -#}
    select
        {%- for c in columns %}
        {{ c }},
        {%- endfor %}
        count(*) as rows_with_these_values
    from {{ model }}
    where
        {%- for c in columns %}
        {{ c }} is not null{{ " and" if not loop.last }}
        {%- endfor %}
    group by {{ columns | join(', ') }}
    having count(*) > 1
{% endtest %}
