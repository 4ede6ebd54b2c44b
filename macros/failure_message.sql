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


{% macro error_pattern(message, length=80) -%}
    {#- The shape of an error message, for counting failures alike: digits folded to N (a
        timeout of 30000 ms and one of 31000 ms are one pattern), cut to `length`. The
        report's failure-pattern table folds them the same way. -#}
    left({{ regex_replace(message, "'[0-9]+'", "'N'") }}, {{ length }})
{%- endmacro %}
