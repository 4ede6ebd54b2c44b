{% macro raise_error(message) -%}
    {#- An expression that fails the query with `message` (a SQL text expression) when it is
        evaluated: how a model refuses bad input at run time. -#}
    {{ return(adapter.dispatch('raise_error', 'agent_scoring')(message)) }}
{%- endmacro %}

{% macro duckdb__raise_error(message) -%}
    error({{ message }})
{%- endmacro %}

{% macro spark__raise_error(message) -%}
    raise_error({{ message }})
{%- endmacro %}
