{% test holds(model, expressions=[], unique=[], column_name=none) %}
    {#-
        Several expectations on a model's rows in one test (one node, not one per rule): a
        row per expectation that some rows break, saying which and how many (a null counts
        as broken). `unique`: column lists no two rows may share, an expectation each (rows
        with a null among them are not compared, as in dbt's `unique`); its failing row also
        names one repeated value. Tables with a contract state their row rules as
        constraints instead, checked as rows are inserted (a view's contract has none). A
        model's key (its grain) is a primary_key constraint, or is tested by
        unique_combination_of_columns, or unique and not_null on one column;
        `unique` here is for the seeds.
    -#}
    {%- for expression in expressions %}
    select
        {{ sql_string(expression) }} as expectation,
        count(*) as rows_breaking,
        cast(null as {{ dbt.type_string() }}) as repeated_value
    from {{ model }}
    where not coalesce({{ expression }}, false)
    having count(*) > 0
    {{ "union all" if not loop.last or unique }}
    {%- endfor %}
    {%- for key in unique %}
    select
        {{ sql_string('unique: ' ~ key | join(', ')) }} as expectation,
        sum(occurrences) as rows_breaking,
        min(repeated_value) as repeated_value
    from (
        select concat_ws(', ', {{ key | join(', ') }}) as repeated_value, count(*) as occurrences
        from {{ model }}
        where {{ key | join(' is not null and ') }} is not null
        group by {{ key | join(', ') }}
        having count(*) > 1
    ) as repeated
    having count(*) > 0
    {{ "union all" if not loop.last }}
    {%- endfor %}
{% endtest %}
