{% macro raw_json_extract(raw_json) -%}
    {#-
        ONE parse of the cell for every field the agents need: one call is several times
        faster than one ->> per field. Malformed JSON would abort the whole query: it is
        null here; any other JSON value gives its fields (null when it is not an object).
    -#}
    {{ return(adapter.dispatch('raw_json_extract', 'agent_scoring')(raw_json)) }}
{%- endmacro %}

{% macro raw_json_paths() -%}
    {#- The Raw JSON fields the agents score, in the order raw_json_columns() reads them:
        the first four as JSON (assistantMessage as text, dataUIList as its entries'
        uiValue), the last two only counted (entries of an array). -#}
    {{ return(['$.assistantMessage', '$.dataUIList', '$.responseTimeSec', '$.error',
               '$.executionProcesses', '$.worker']) }}
{%- endmacro %}

{% macro duckdb__raw_json_extract(raw_json) -%}
    {#- A struct with a field per path. The counted arrays are read as lists of nulls: a
        json_extract wrote each worker back out as JSON only to count it (the staging query
        of 100k rows: 3.3 -> 3.15 s, docs/builds.md). A JSON null is a SQL null here: every
        reader of these fields treats the two alike.
        json_valid() keeps malformed text from the transform. It reads each cell a second
        time, and that is cheaper than try() alone, which catches the error by running the
        whole vector of 2,048 rows again row by row: with a malformed cell in most vectors,
        try() alone took 1.6-1.8 x the CPU (docs/builds.md). try() stays for anything
        json_valid() would let through.
        dataUIList is read down to each entry's uiValue in the same parse (a list of structs;
        null when it is no array, as a second json_transform of it gave): that second parse
        of the list, and writing it out as JSON first, took 1.2-1.6 s of CPU at 1M rows.
        assistantMessage is read as text, which is json_text() of it (a string unquoted, null
        for null, any other value as JSON), without writing it out as JSON and parsing that
        twice more (0.5 s of CPU at 1M rows). -#}
    {%- set types = {
        '$.assistantMessage': '"VARCHAR"',
        '$.dataUIList': '[{"uiValue": "JSON"}]',
    } -%}
    {%- set fields = [] -%}
    {%- for path in raw_json_paths() -%}
        {%- do fields.append('"' ~ path[2:] ~ '": '
            ~ types.get(path, '["NULL"]' if loop.index > 4 else '"JSON"')) -%}
    {%- endfor %}
    case
        when json_valid({{ raw_json }})
            then try(json_transform({{ raw_json }}, '{ {{- fields | join(", ") -}} }'))
    end
{%- endmacro %}

{% macro spark__raw_json_extract(raw_json) -%}
    {#- JSON values are VARIANTs on Spark; null for malformed text. The cell is parsed once:
        the lambda names the parsed value, as SQL has no let. -#}
    element_at(transform(array({{ spark_parse_json(raw_json) }}), parsed ->
        case when parsed is not null then array(
            {%- for path in raw_json_paths() %}
            try_variant_get(parsed, '{{ path }}'){{ ',' if not loop.last }}
            {%- endfor %}
        ) end
    ), 1)
{%- endmacro %}

{% macro spark_parse_json(text) -%}
    {#- Text as a VARIANT, null when it is no JSON. DuckDB also reads the bare NaN and
        Infinity that Python's json.dumps writes; Spark's parser does not, so a text it
        refuses is read again with them quoted ("NaN" then casts to the same double). -#}
    coalesce(
        try_parse_json({{ text }}),
        try_parse_json(regexp_replace(
            {{ text }}, '([:\[,]\s*)(-?Infinity|NaN)(?=\s*[,}\]])', '$1"$2"'))
    )
{%- endmacro %}

{% macro raw_json_type(raw_json, raw_fields) -%}
    {#-
        The JSON type of the whole cell (OBJECT, ARRAY, VARCHAR, ...), null when not JSON.
        A cell that has one of the fields is an object; only the rest is parsed again.
    -#}
    {{ return(adapter.dispatch('raw_json_type', 'agent_scoring')(raw_json, raw_fields)) }}
{%- endmacro %}

{% macro duckdb__raw_json_type(raw_json, raw_fields) -%}
    case
        when {{ raw_fields }} is null then null
        when
            {%- for path in raw_json_paths() %}
            {{ raw_fields }}.{{ path[2:] }} is not null{{ ' or' if not loop.last }}
            {%- endfor %}
            then 'OBJECT'
        else json_type({{ raw_json }})
    end
{%- endmacro %}

{% macro spark__raw_json_type(raw_json, raw_fields) -%}
    case
        when {{ raw_fields }} is null then null
        when exists({{ raw_fields }}, field -> field is not null) then 'OBJECT'
        else {{ spark_json_type(spark_parse_json(raw_json)) }}
    end
{%- endmacro %}

{% macro spark_json_type(value) -%}
    {#- A VARIANT's type under DuckDB's json_type() names, so both engines share the rules -#}
    case
        when {{ value }} is null then null
        when schema_of_variant({{ value }}) like 'OBJECT%' then 'OBJECT'
        when schema_of_variant({{ value }}) like 'ARRAY%' then 'ARRAY'
        when schema_of_variant({{ value }}) = 'STRING' then 'VARCHAR'
        when schema_of_variant({{ value }}) = 'BOOLEAN' then 'BOOLEAN'
        when schema_of_variant({{ value }}) = 'VOID' then 'NULL'
        when schema_of_variant({{ value }}) in ('BIGINT', 'INT', 'SMALLINT', 'TINYINT') then 'BIGINT'
        else 'DOUBLE'
    end
{%- endmacro %}

{% macro raw_json_columns(raw_json, raw_json_type, raw_fields) -%}
    {#-
        What is kept of a Raw JSON cell once it is parsed: its shape, its length and the
        fields the agents score (the message as text and the UI values, made once here for
        every agent's models; the others as JSON). The multi-kB text is not stored anywhere.
    -#}
    {{ return(adapter.dispatch('raw_json_columns', 'agent_scoring')(raw_json, raw_json_type, raw_fields)) }}
{%- endmacro %}

{% macro duckdb__raw_json_columns(raw_json, raw_json_type, raw_fields) -%}
    {{ raw_json }} is null as raw_json_is_missing,
    coalesce({{ raw_json_type }} = 'OBJECT', false) as raw_json_is_valid,
    length({{ raw_json }}) as raw_json_chars,
    {{ raw_json_problem(raw_json, raw_json_type) }} as raw_json_problem,
    {#- already text (duckdb__raw_json_extract) -#}
    {{ raw_fields }}.assistantMessage as assistant_message,
    {{ json_ui_values(raw_fields ~ '.dataUIList') }} as ui_values,
    {{ raw_fields }}.responseTimeSec as response_time_json,
    {{ raw_fields }}.error as raw_error_json,
    len({{ raw_fields }}.executionProcesses)::ubigint as execution_count,
    len({{ raw_fields }}.worker)::ubigint as worker_count,
    {{ raw_reply(raw_json) }} as raw_reply
{%- endmacro %}

{% macro spark__raw_json_columns(raw_json, raw_json_type, raw_fields) -%}
    {{ raw_json }} is null as raw_json_is_missing,
    coalesce({{ raw_json_type }} = 'OBJECT', false) as raw_json_is_valid,
    length({{ raw_json }}) as raw_json_chars,
    {{ raw_json_problem(raw_json, raw_json_type) }} as raw_json_problem,
    {{ json_text(raw_fields ~ '[0]') }} as assistant_message,
    {{ json_ui_values(raw_fields ~ '[1]') }} as ui_values,
    {#- a JSON null is a SQL null, as on DuckDB (duckdb__raw_json_extract) -#}
    case when not is_variant_null({{ raw_fields }}[2]) then {{ raw_fields }}[2] end
        as response_time_json,
    case when not is_variant_null({{ raw_fields }}[3]) then {{ raw_fields }}[3] end
        as raw_error_json,
    {{ spark_json_array_size(raw_fields ~ '[4]') }} as execution_count,
    {{ spark_json_array_size(raw_fields ~ '[5]') }} as worker_count,
    {{ raw_reply(raw_json) }} as raw_reply
{%- endmacro %}

{% macro raw_json_problem(raw_json, raw_json_type, source_file='source_file') -%}
    {#-
        Why a Raw JSON cell cannot be used, in words a user can act on; null when it is a
        JSON object. Excel cuts every cell at 32,767 characters: an invalid cell of exactly
        that length in an xlsx export was cut; in a CSV (saved through Excel or not) it
        almost certainly was.
    -#}
    {{ return(adapter.dispatch('raw_json_problem', 'agent_scoring')(raw_json, raw_json_type, source_file)) }}
{%- endmacro %}

{% macro default__raw_json_problem(raw_json, raw_json_type, source_file) -%}
    case
        when {{ raw_json }} is null then 'Raw JSON missing'
        when {{ raw_json_type }} = 'OBJECT' then null
        when {{ raw_json_type }} = 'ARRAY' then 'Raw JSON is an array, not an object'
        when {{ raw_json_type }} = 'VARCHAR' then 'Raw JSON is a string, not an object'
        when {{ raw_json_type }} = 'BOOLEAN' then 'Raw JSON is a boolean, not an object'
        when {{ raw_json_type }} = 'NULL' then 'Raw JSON is null'
        when {{ raw_json_type }} is not null then 'Raw JSON is a number, not an object'
        when length({{ raw_json }}) = 32767 and lower({{ source_file }}) like '%.xlsx'
            then 'Raw JSON truncated by Excel at its 32,767-character cell limit'
        when length({{ raw_json }}) = 32767 then 'Raw JSON unparsable (truncated at 32,767 chars?)'
        else 'Raw JSON unparsable'
    end
{%- endmacro %}

{% macro json_text(json_value) -%}
    {#- A JSON scalar as text: strings unquoted, JSON null as SQL null, anything else as JSON. -#}
    {{ return(adapter.dispatch('json_text', 'agent_scoring')(json_value)) }}
{%- endmacro %}

{% macro duckdb__json_text(json_value) -%}
    case json_type({{ json_value }})
        when 'NULL' then null
        when 'VARCHAR' then {{ json_value }} ->> '$'
        else {{ json_value }}::varchar
    end
{%- endmacro %}

{% macro spark__json_text(json_value) -%}
    case {{ spark_json_type(json_value) }}
        when 'NULL' then null
        when 'VARCHAR' then cast({{ json_value }} as string)
        else to_json({{ json_value }})
    end
{%- endmacro %}

{% macro json_seconds(json_value) -%}
    {#- responseTimeSec: a number or numeric string, finite and not negative; else missing. -#}
    {{ return(adapter.dispatch('json_seconds', 'agent_scoring')(json_value)) }}
{%- endmacro %}

{% macro duckdb__json_seconds(json_value) -%}
    case
        when json_type({{ json_value }}) in ('DOUBLE', 'BIGINT', 'UBIGINT')
            then {{ json_value }}::double
        when json_type({{ json_value }}) = 'VARCHAR'
            then try_cast(trim({{ json_value }} ->> '$') as double)
    end
{%- endmacro %}

{% macro spark__json_seconds(json_value) -%}
    case
        when {{ spark_json_type(json_value) }} in ('DOUBLE', 'BIGINT')
            then cast({{ json_value }} as double)
        when {{ spark_json_type(json_value) }} = 'VARCHAR'
            then try_cast(trim(cast({{ json_value }} as string)) as double)
    end
{%- endmacro %}

{% macro json_ui_values(json_list) -%}
    {#- dataUIList[*].uiValue as JSON objects; a uiValue sent as a JSON string is parsed. -#}
    {{ return(adapter.dispatch('json_ui_values', 'agent_scoring')(json_list)) }}
{%- endmacro %}

{% macro duckdb__json_ui_values(json_list) -%}
    {#- `json_list` is already a list of {uiValue} structs (duckdb__raw_json_extract) -#}
    list_transform(
        {{ json_list }},
        lambda entry: case
            when json_type(entry.uiValue) = 'VARCHAR' and json_valid(entry.uiValue ->> '$')
                then (entry.uiValue ->> '$')::json
            else entry.uiValue
        end
    )
{%- endmacro %}

{% macro spark__json_ui_values(json_list) -%}
    case
        when {{ spark_json_type(json_list) }} = 'ARRAY' then transform(
            cast({{ json_list }} as array<variant>),
            entry -> case
                when {{ spark_json_type("try_variant_get(entry, '$.uiValue')") }} = 'VARCHAR'
                    and try_parse_json(try_variant_get(entry, '$.uiValue', 'string')) is not null
                    then try_parse_json(try_variant_get(entry, '$.uiValue', 'string'))
                else try_variant_get(entry, '$.uiValue')
            end
        )
    end
{%- endmacro %}

{% macro spark_json_array_size(json_value) -%}
    {#- A VARIANT's entries when it is an array, else null -#}
    case
        when {{ spark_json_type(json_value) }} = 'ARRAY'
            then size(cast({{ json_value }} as array<variant>))
    end
{%- endmacro %}

{% macro response_time_problem() -%}
    {#-
        Why responseTimeSec gives no speed score, or null when it does: missing (absent or
        null; failed runs), comma_decimal ("12,5"), not_a_number (other text, objects),
        not_finite (NaN, ±Infinity, 1e400), negative, too_large (above
        var('max_response_time_sec'): no real measurement). Reads `response_time_json` and
        `response_time_raw` (json_seconds() of it).
    -#}
    {{ return(adapter.dispatch('response_time_problem', 'agent_scoring')()) }}
{%- endmacro %}

{% macro duckdb__response_time_problem() -%}
    case
        when response_time_json is null or json_type(response_time_json) = 'NULL' then 'missing'
        when json_type(response_time_json) = 'VARCHAR'
            and regexp_full_match(response_time_json ->> '$', '\s*[+-]?[0-9]+,[0-9]+\s*')
            then 'comma_decimal'
        when response_time_raw is null then 'not_a_number'
        when not isfinite(response_time_raw) then 'not_finite'
        when response_time_raw < 0 then 'negative'
        when response_time_raw > {{ var('max_response_time_sec') }} then 'too_large'
    end
{%- endmacro %}

{% macro spark__response_time_problem() -%}
    case
        when response_time_json is null or is_variant_null(response_time_json) then 'missing'
        when {{ spark_json_type('response_time_json') }} = 'VARCHAR'
            and regexp_like(cast(response_time_json as string), '^\s*[+-]?[0-9]+,[0-9]+\s*$')
            then 'comma_decimal'
        when response_time_raw is null then 'not_a_number'
        when isnan(response_time_raw) or abs(response_time_raw) = double('infinity') then 'not_finite'
        when response_time_raw < 0 then 'negative'
        when response_time_raw > {{ var('max_response_time_sec') }} then 'too_large'
    end
{%- endmacro %}

{% macro raw_json_column_names() %}
    {#- The columns raw_json_columns() makes of a Raw JSON cell (stg_exports__rows). -#}
    {{ return([
        'raw_json_is_missing', 'raw_json_is_valid', 'raw_json_chars', 'raw_json_problem',
        'assistant_message', 'ui_values', 'response_time_json', 'raw_error_json',
        'execution_count', 'worker_count', 'raw_reply',
    ]) }}
{% endmacro %}

{% macro raw_reply(raw_json, record_no='record_no') -%}
    {#- The Raw JSON text as exported, for the run browser's item pages (score-report site):
        kept for the first var('site_replies_per_file') records of each file, so a file of
        the team's size keeps every reply and a 100k-row file does not store gigabytes. -#}
    case when {{ record_no }} <= {{ var('site_replies_per_file') }} then {{ raw_json }} end
{%- endmacro %}
