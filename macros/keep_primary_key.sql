{% macro keep_primary_key() %}
    {#- A pre-hook of every model (dbt_project.yml). An incremental table made before its
        model declared a primary key (by an earlier version of this project) gets the key
        on its next build: dbt creates a model's constraints only with its table, and an
        incremental model's table is made once. A key that repeats fails the model here. -#}
    {{ return(adapter.dispatch('keep_primary_key', 'agent_scoring')()) }}
{% endmacro %}

{% macro default__keep_primary_key() %}
    {#- Spark: no constraints (vars.engines_without_constraints) -#}
{% endmacro %}

{% macro duckdb__keep_primary_key() %}
    {%- if execute and model.config.materialized == 'incremental'
        and model.config.contract.enforced and is_incremental() -%}
        {%- set key = [] -%}
        {%- for constraint in model.constraints if constraint.type == 'primary_key' -%}
            {%- do key.extend(constraint.columns) -%}
        {%- endfor -%}
        {%- if key -%}
            {%- set held = run_query("select count(*) from duckdb_constraints() "
                ~ "where constraint_type = 'PRIMARY KEY' and schema_name = '" ~ this.schema
                ~ "' and table_name = '" ~ this.identifier ~ "'") -%}
            {%- if held.columns[0].values()[0] == 0 -%}
    alter table {{ this }} add primary key ({{ key | join(', ') }})
            {%- endif -%}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
