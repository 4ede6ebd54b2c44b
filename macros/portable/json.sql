{#- JSON values: DuckDB's JSON type, Spark's VARIANT. The models call these, never an
    engine's JSON functions. (Raw JSON cells: raw_json_fields.sql.) -#}

{% macro json_texts_at(value, paths) -%}
    {#- A list: the value at each of `paths` (JSONPath literals) as text, strings unquoted. -#}
    {{ return(adapter.dispatch('json_texts_at', 'agent_scoring')(value, paths)) }}
{%- endmacro %}

{% macro duckdb__json_texts_at(value, paths) -%}
    json_extract_string({{ value }}, {{ sql_list(paths) }})
{%- endmacro %}

{% macro spark__json_texts_at(value, paths) -%}
    cast(array(
        {%- for path in paths %}
        try_variant_get({{ value }}, {{ sql_string(path) }}, 'string'){{ ',' if not loop.last }}
        {%- endfor %}
    ) as array<string>)
{%- endmacro %}


{% macro json_text_at(value, path) -%}
    {#- The value at `path` (a JSONPath literal) as text, strings unquoted. -#}
    {{ return(adapter.dispatch('json_text_at', 'agent_scoring')(value, path)) }}
{%- endmacro %}

{% macro duckdb__json_text_at(value, path) -%}
    json_extract_string({{ value }}, {{ sql_string(path) }})
{%- endmacro %}

{% macro spark__json_text_at(value, path) -%}
    try_variant_get({{ value }}, {{ sql_string(path) }}, 'string')
{%- endmacro %}


{% macro json_as_text(value) -%}
    {#- A JSON value written as JSON text. -#}
    {{ return(adapter.dispatch('json_as_text', 'agent_scoring')(value)) }}
{%- endmacro %}

{% macro duckdb__json_as_text(value) -%}
    {{ value }}::varchar
{%- endmacro %}

{% macro spark__json_as_text(value) -%}
    to_json({{ value }})
{%- endmacro %}


{% macro json_object_pairs(relation, id_column, text_column) -%}
    {#- A query: per row of `relation` whose `text_column` is a JSON object, one row per key
        in document order (id_column, segment_no, check_key, raw_value). Only a plain-word key
        can name a check; any other gets a null value (it is no valid JSON path). -#}
    {{ return(adapter.dispatch('json_object_pairs', 'agent_scoring')(relation, id_column, text_column)) }}
{%- endmacro %}

{% macro duckdb__json_object_pairs(relation, id_column, text_column) -%}
    select
        {{ id_column }},
        segment_no,
        check_key,
        case when {{ regex_full_match('check_key', "'[A-Za-z]+'") }} then
            {{ json_text("json_extract(json_value, '$.\"' || check_key || '\"')") }}
        end as raw_value
    from (
        select
            {{ id_column }},
            json_value,
            generate_subscripts(json_keys(json_value), 1) as segment_no,
            unnest(json_keys(json_value)) as check_key
        from (
            select {{ id_column }}, trim({{ text_column }})::json as json_value
            from {{ relation }}
            where {{ duckdb__is_json_object('trim(' ~ text_column ~ ')') }}
        )
    )
{%- endmacro %}

{% macro spark__json_object_pairs(relation, id_column, text_column) -%}
    {#- json_object_keys keeps document order (a VARIANT sorts its keys) -#}
    select
        {{ id_column }},
        segment_no,
        check_key,
        case when {{ regex_full_match('check_key', "'[A-Za-z]+'") }} then
            get_json_object(json_text, '$.' || check_key)
        end as raw_value
    from (
        select
            {{ id_column }},
            json_text,
            {{ unnest_numbered('json_object_keys(json_text)', 'segment_no', 'check_key') }}
        from (
            select {{ id_column }}, trim({{ text_column }}) as json_text
            from {{ relation }}
            where {{ spark_json_type('try_parse_json(trim(' ~ text_column ~ '))') }} = 'OBJECT'
        )
    )
{%- endmacro %}


{% macro is_json_object(text) -%}
    {#- The text is a JSON object. -#}
    {{ return(adapter.dispatch('is_json_object', 'agent_scoring')(text)) }}
{%- endmacro %}

{% macro duckdb__is_json_object(text) -%}
    {#- a case, so json_type never meets malformed text -#}
    case when json_valid({{ text }}) then json_type({{ text }}) = 'OBJECT' else false end
{%- endmacro %}

{% macro spark__is_json_object(text) -%}
    coalesce({{ spark_json_type('try_parse_json(' ~ text ~ ')') }} = 'OBJECT', false)
{%- endmacro %}


{% macro text_as_json(text) -%}
    {#- Text as a JSON string value (null stays null). -#}
    {{ return(adapter.dispatch('text_as_json', 'agent_scoring')(text)) }}
{%- endmacro %}

{% macro duckdb__text_as_json(text) -%}
    to_json({{ text }})
{%- endmacro %}

{% macro spark__text_as_json(text) -%}
    try_variant_get(parse_json(to_json(array({{ text }}))), '$[0]')
{%- endmacro %}


{% macro extra_column(name, extra_columns='extra_columns') -%}
    {#- The text of an export column kept in extra_columns (an agent's own column, or a header
        no map knows), by its key. DuckDB holds extra_columns as JSON; Spark reads the
        loader's Parquet copy, where it is JSON text. -#}
    {{ return(adapter.dispatch('extra_column', 'agent_scoring')(name, extra_columns)) }}
{%- endmacro %}

{% macro duckdb__extra_column(name, extra_columns) -%}
    json_extract_string({{ extra_columns }}, {{ sql_string('$."' ~ name ~ '"') }})
{%- endmacro %}

{% macro spark__extra_column(name, extra_columns) -%}
    get_json_object({{ extra_columns }}, {{ sql_string('$.' ~ name) }})
{%- endmacro %}
