{% test score_in_range(model, column_name) %}
    {#- A 0-5 score is never outside 0-5 (nulls are allowed: unscored). -#}
    select {{ column_name }}
    from {{ model }}
    where {{ column_name }} < 0 or {{ column_name }} > 5
{% endtest %}
