{% test unique_combination_of_columns(model, combination_of_columns) %}
    {#- No two rows share the combination of `combination_of_columns` (a model's key, its
        grain): one failing row per repeated combination, with how often it occurs. A null
        counts as a value, so two rows alike but for being null in the same key column fail.
        It mirrors dbt_utils' test of the same name and argument (which the
        dbt-project-evaluator recognises as a primary-key test), because `dbt deps` cannot
        reach the package hub here. Where the engine itself enforces that key (a model
        contract's unique constraint on DuckDB: an insert that breaks it fails the model),
        the test reads the catalog instead of scanning millions of rows again. -#}
    select {{ combination_of_columns | join(', ') }}, count(*) as occurrences
    from {{ model }}
    {%- if key_is_enforced(model, combination_of_columns) %}
    where false  -- the engine enforces this key: no row can repeat it
    {%- endif %}
    group by {{ combination_of_columns | join(', ') }}
    having count(*) > 1
{% endtest %}


{% macro key_is_enforced(relation, columns) -%}
    {#- True when the engine enforces a unique (or primary) key on exactly `columns`. -#}
    {{ return(adapter.dispatch('key_is_enforced', 'agent_scoring')(relation, columns)) }}
{%- endmacro %}

{% macro default__key_is_enforced(relation, columns) -%}
    {{ return(false) }}
{%- endmacro %}

{% macro duckdb__key_is_enforced(relation, columns) -%}
    {%- if not execute -%}{{ return(false) }}{%- endif -%}
    {%- set found = run_query(
        "select count(*) from duckdb_constraints() where database_name = "
        ~ sql_string(relation.database) ~ " and schema_name = " ~ sql_string(relation.schema)
        ~ " and table_name = " ~ sql_string(relation.identifier)
        ~ " and constraint_type in ('UNIQUE', 'PRIMARY KEY')"
        ~ " and list_sort(constraint_column_names) = list_sort(" ~ sql_list(columns) ~ ")") -%}
    {{ return(found.columns[0].values()[0] > 0) }}
{%- endmacro %}
