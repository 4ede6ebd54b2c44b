{% macro failure_message(results) -%}
    {#- Why a row failed to run, or null: the 오류 column, an unusable Raw JSON, or raw error. -#}
    coalesce(
        {{ results }}.error_text,
        case
            when {{ results }}.raw_json_is_missing then 'Raw JSON missing'
            when not {{ results }}.raw_json_is_valid
                then coalesce({{ results }}.raw_json_problem, 'Raw JSON unparsable')
        end,
        nullif(trim({{ results }}.raw_error), '')
    )
{%- endmacro %}
