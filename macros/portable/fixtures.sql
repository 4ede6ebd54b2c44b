{% macro spark__safe_cast(field, type) -%}
    {#- How dbt's unit-test fixtures cast each given value. A list or JSON value is given as
        its JSON text, which DuckDB's cast reads; Spark's cast does not, so on Spark the text
        is parsed (bare NaN and ±Infinity as the Raw JSON reader reads them). -#}
    {%- set kind = type | lower | trim -%}
    {%- set is_text = field is string and field.startswith("'") -%}
    {%- if is_text and kind == 'variant' -%}
        {%- if field[1:-1] in ('NaN', 'Infinity', '-Infinity') -%}
            parse_json('"{{ field[1:-1] }}"')
        {%- else -%}
            {{ spark_parse_json(field) }}
        {%- endif -%}
    {%- elif is_text and kind.startswith('array') and 'variant' in kind -%}
        variant_get({{ spark_parse_json(field) }}, '$', '{{ kind }}')
    {%- elif is_text and kind.startswith(('array', 'map', 'struct')) -%}
        from_json({{ field }}, '{{ kind }}')
    {%- else -%}
        cast({{ field }} as {{ type }})
    {%- endif -%}
{%- endmacro %}
