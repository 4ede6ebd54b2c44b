{% macro spark__load_csv_rows(model, agate_table) %}
    {#- dbt-spark's session method pastes seed values into the SQL unquoted (a text with an
        apostrophe breaks the insert, an empty cell becomes the text 'None'): write them as
        literals here (sql_string). -#}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
                ({%- for col_name in agate_table.column_names -%}
                    {%- set type = column_override.get(
                        col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                    cast({{ spark_literal(row[loop.index0]) }} as {{ type }})
                    {{- "," if not loop.last }}
                {%- endfor -%})
                {{- "," if not loop.last }}
            {%- endfor %}
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 -%}{%- do statements.append(sql) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(statements[0]) }}
{% endmacro %}


{% macro spark_literal(value) -%}
    {%- if value is none -%}
        null
    {%- elif value is sameas true or value is sameas false -%}
        {{ 'true' if value else 'false' }}
    {%- elif value is number -%}
        {{ value }}
    {%- else -%}
        {{ sql_string(value) }}
    {%- endif -%}
{%- endmacro %}
