{% macro raw_json_fields(raw_json) -%}
    {#-
        The Raw JSON columns every agent needs, from ONE parse of the cell: a list-of-paths
        json_extract is several times faster than one ->> per field. Malformed JSON would abort
        the whole query, so anything that is not a JSON object is never extracted.
    -#}
    raw_fields[1] as _assistant_message_json,
    raw_fields[2] as _data_ui_list_json,
    raw_fields[3] as _response_time_json,
    raw_fields[4] as _raw_error_json,
    raw_fields[5] as _execution_processes_json,
    raw_fields[6] as _worker_json
{%- endmacro %}

{% macro raw_json_extract(raw_json) -%}
    case
        when json_valid({{ raw_json }}) and json_type({{ raw_json }}) = 'OBJECT'
            then json_extract({{ raw_json }}, [
                '$.assistantMessage', '$.dataUIList', '$.responseTimeSec',
                '$.error', '$.executionProcesses', '$.worker'
            ])
    end
{%- endmacro %}

{% macro json_text(json_value) -%}
    {#- A JSON scalar as text: strings unquoted, JSON null as SQL null, anything else as JSON. -#}
    case json_type({{ json_value }})
        when 'NULL' then null
        when 'VARCHAR' then {{ json_value }} ->> '$'
        else {{ json_value }}::varchar
    end
{%- endmacro %}

{% macro json_seconds(json_value) -%}
    {#- responseTimeSec: a number or numeric string, finite and not negative; else missing. -#}
    case
        when json_type({{ json_value }}) in ('DOUBLE', 'BIGINT', 'UBIGINT')
            then {{ json_value }}::double
        when json_type({{ json_value }}) = 'VARCHAR'
            then try_cast(trim({{ json_value }} ->> '$') as double)
    end
{%- endmacro %}

{% macro json_ui_values(json_list) -%}
    {#- dataUIList[*].uiValue as JSON objects; a uiValue sent as a JSON string is parsed. -#}
    case
        when json_type({{ json_list }}) = 'ARRAY' then list_transform(
            cast({{ json_list }} as json[]),
            lambda entry: case
                when json_type(entry -> '$.uiValue') = 'VARCHAR'
                    and json_valid(entry ->> '$.uiValue')
                    then (entry ->> '$.uiValue')::json
                else entry -> '$.uiValue'
            end
        )
    end
{%- endmacro %}

{% macro json_array_size(json_value) -%}
    case when json_type({{ json_value }}) = 'ARRAY' then json_array_length({{ json_value }}) end
{%- endmacro %}
