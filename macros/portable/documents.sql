{#- JSON documents (the RAG files): typed fields read from JSON text, and the few list and
    time functions their models need. Shapes are written once, in engine-neutral types:
    'text', 'bigint', 'int', 'double', 'boolean', 'json' (the value as JSON text), a list
    of one type ['text'], or a dict of named fields. -#}

{% macro json_fields(text, shape) -%}
    {#- `text` (JSON) read as `shape`: a struct (or a list). A key the text lacks, or a value
        of another type, reads as null; a nested value read as 'json' keeps its JSON text. -#}
    {{ return(adapter.dispatch('json_fields', 'agent_scoring')(text, shape)) }}
{%- endmacro %}

{% macro duckdb__json_fields(text, shape) -%}
    json_transform({{ text }}, {{ sql_string(tojson(duckdb_json_shape(shape))) }})
{%- endmacro %}

{% macro spark__json_fields(text, shape) -%}
    from_json({{ text }}, {{ sql_string(spark_json_shape(shape, top=true)) }})
{%- endmacro %}

{% macro duckdb_json_shape(shape) -%}
    {%- set names = {'text': 'VARCHAR', 'bigint': 'BIGINT', 'int': 'INTEGER',
                     'double': 'DOUBLE', 'boolean': 'BOOLEAN', 'json': 'JSON'} -%}
    {%- if shape is mapping -%}
        {%- set fields = {} -%}
        {%- for name, inner in shape.items() -%}
            {%- do fields.update({name: duckdb_json_shape(inner)}) -%}
        {%- endfor -%}
        {{ return(fields) }}
    {%- elif shape is string -%}
        {{ return(names[shape]) }}
    {%- else -%}
        {{ return([duckdb_json_shape(shape[0])]) }}
    {%- endif -%}
{%- endmacro %}

{% macro spark_json_shape(shape, top=false) -%}
    {#- Spark's DDL; 'json' is a string, which Spark fills with the value's JSON text -#}
    {%- set names = {'text': 'string', 'bigint': 'bigint', 'int': 'int',
                     'double': 'double', 'boolean': 'boolean', 'json': 'string'} -%}
    {%- if shape is mapping -%}
        {%- set fields = [] -%}
        {%- for name, inner in shape.items() -%}
            {%- do fields.append('`' ~ name ~ '`' ~ (' ' if top else ': ') ~ spark_json_shape(inner)) -%}
        {%- endfor -%}
        {{ return(fields | join(', ') if top else 'struct<' ~ fields | join(', ') ~ '>') }}
    {%- elif shape is string -%}
        {{ return(names[shape]) }}
    {%- else -%}
        {{ return('array<' ~ spark_json_shape(shape[0]) ~ '>') }}
    {%- endif -%}
{%- endmacro %}


{% macro json_type_at(text, path) -%}
    {#- The JSON type (DuckDB's names: OBJECT, ARRAY, VARCHAR, ...) of the value at `path`
        in `text`; null when the text is no JSON or has nothing there. -#}
    {{ return(adapter.dispatch('json_type_at', 'agent_scoring')(text, path)) }}
{%- endmacro %}

{% macro duckdb__json_type_at(text, path) -%}
    case when json_valid({{ text }}) then json_type({{ text }}, {{ sql_string(path) }}) end
{%- endmacro %}

{% macro spark__json_type_at(text, path) -%}
    {{ spark_json_type('try_variant_get(try_parse_json(' ~ text ~ '), ' ~ sql_string(path) ~ ')') }}
{%- endmacro %}


{% macro list_without(list, others) -%}
    {#- The items of `list` that are not in `others`, in order, duplicates kept. -#}
    {{ return(adapter.dispatch('list_without', 'agent_scoring')(list, others)) }}
{%- endmacro %}

{% macro duckdb__list_without(list, others) -%}
    list_filter({{ list }}, lambda item: not list_contains({{ others }}, item))
{%- endmacro %}

{% macro spark__list_without(list, others) -%}
    filter({{ list }}, item -> not array_contains({{ others }}, item))
{%- endmacro %}


{% macro list_concat(first, second) -%}
    {#- The items of `first`, then those of `second`. -#}
    {{ return(adapter.dispatch('list_concat', 'agent_scoring')(first, second)) }}
{%- endmacro %}

{% macro duckdb__list_concat(first, second) -%}
    list_concat({{ first }}, {{ second }})
{%- endmacro %}

{% macro spark__list_concat(first, second) -%}
    concat({{ first }}, {{ second }})
{%- endmacro %}


{% macro timestamp_from(text, format) -%}
    {#- `text` read as a timestamp written in `format` (strftime: %Y %m %d %H %M %S); null
        when it does not fit. -#}
    {{ return(adapter.dispatch('timestamp_from', 'agent_scoring')(text, format)) }}
{%- endmacro %}

{% macro duckdb__timestamp_from(text, format) -%}
    try_strptime({{ text }}, {{ sql_string(format) }})
{%- endmacro %}

{% macro spark__timestamp_from(text, format) -%}
    {%- set java = format | replace('%Y', 'yyyy') | replace('%m', 'MM') | replace('%d', 'dd')
        | replace('%H', 'HH') | replace('%M', 'mm') | replace('%S', 'ss') -%}
    cast(try_to_timestamp({{ text }}, {{ sql_string(java) }}) as timestamp)
{%- endmacro %}
