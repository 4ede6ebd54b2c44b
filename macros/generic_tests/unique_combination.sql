{% test unique_combination(model, columns=none, keys=none) %}
    {#- Rows whose `columns` together repeat another row's (rows with a null among them are
        not compared, as in dbt's `unique`); `keys` checks several such keys in one test. One
        failing row per repeated value of a key. -#}
    {%- set keys = keys or [columns] %}
    {%- for key in keys %}
    select
        {{ sql_string(key | join(', ')) }} as key_columns,
        {{ "concat_ws(', ', " ~ (key | join(', ')) ~ ")" }} as repeated_value,
        count(*) as occurrences
    from {{ model }}
    where {% for column in key %}{{ column }} is not null{{ " and " if not loop.last }}{% endfor %}
    group by {{ key | join(', ') }}
    having count(*) > 1
    {{ "union all" if not loop.last }}
    {%- endfor %}
{% endtest %}
