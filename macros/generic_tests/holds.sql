{% test holds(model, expressions, column_name=none) %}
    {#-
        Several expectations on a model's rows in one test: a row per expectation that some
        rows break, saying which and how many (a null counts as broken). Models with a
        contract state their row rules as constraints instead, checked as rows are inserted.
    -#}
    {%- for expression in expressions %}
    select {{ sql_string(expression) }} as expectation, count(*) as rows_breaking
    from {{ model }}
    where not coalesce({{ expression }}, false)
    having count(*) > 0
    {{ "union all" if not loop.last }}
    {%- endfor %}
{% endtest %}
