{% test references(model, columns, to, to_columns=none) %}
    {#- Every combination of `columns` (none of them null) is a row of `to` (`to_columns`,
        by default the same names): one failing row per combination that is not. -#}
    {%- set to_columns = to_columns or columns %}
    select {% for column in columns %}child.{{ column }}{{ ", " if not loop.last }}{% endfor %},
        count(*) as rows_referencing
    from {{ model }} as child
    where {% for column in columns %}child.{{ column }} is not null and {% endfor %}not exists (
        select 1 from {{ to }} as parent
        where {% for column in columns -%}
            parent.{{ to_columns[loop.index0] }} = child.{{ column }}{{ " and " if not loop.last }}
        {%- endfor %}
    )
    group by all
{% endtest %}
