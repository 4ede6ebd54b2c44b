{% test rag_expression_is_true(model, expression, column_name=none) %}
    {#- Rows for which `expression` is not true (false or null) fail the test. -#}
    select *
    from {{ model }}
    where not coalesce({{ expression }}, false)
{% endtest %}
