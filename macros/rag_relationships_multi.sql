{% test rag_relationships_multi(model, columns, to, to_columns=none, column_name=none) %}
    {#-
        Every non-null combination of `columns` in the model exists in `to` (a composite
        relationships test: e.g. category + subcategory must be a pair of the plan seed).
    -#}
    {%- set to_columns = to_columns or columns -%}
    select
        {%- for c in columns %}
        child.{{ c }}{{ "," if not loop.last }}
        {%- endfor %}
    from {{ model }} as child
    left join {{ to }} as parent
        on
        {%- for c in columns %}
        child.{{ c }} = parent.{{ to_columns[loop.index0] }}{{ " and" if not loop.last }}
        {%- endfor %}
    where
        {%- for c in columns %}
        child.{{ c }} is not null and
        {%- endfor %}
        parent.{{ to_columns[0] }} is null
{% endtest %}
