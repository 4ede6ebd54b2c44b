{% test row_count(model, equals) %}
    {#- The model holds exactly `equals` rows (a one-row settings seed). -#}
    select count(*) as row_count
    from {{ model }}
    having count(*) <> {{ equals }}
{% endtest %}
