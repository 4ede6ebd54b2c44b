{% macro file_key(source_file) -%}
    {#- A 64-bit integer for a file name, to join a file's rows inside one model: an integer
        compares at a fraction of the cost of a 26-byte name, on millions of rows. Two names
        with one key would pair rows of different files: tests/dbt/
        assert_file_keys_are_distinct.sql fails the build first (stg_exports__files). -#}
    {{ return(adapter.dispatch('file_key', 'agent_scoring')(source_file)) }}
{%- endmacro %}

{% macro duckdb__file_key(source_file) -%}
    hash({{ source_file }})
{%- endmacro %}

{% macro spark__file_key(source_file) -%}
    {#- Spark's hash() has 32 bits -#}
    xxhash64({{ source_file }})
{%- endmacro %}

{% macro file_names(relation, where='true') -%}
    {#- Each file of `relation` (rows with agent, source_file and file_fingerprint) once, with
        its file_key(): a model that groups a million rows by file_key() instead of the
        three names (one integer against three strings) joins them back from here. -#}
    select distinct agent, source_file, file_fingerprint, {{ file_key('source_file') }} as file_key
    from {{ relation }}
    where {{ where }}
{%- endmacro %}
