{% macro check_passes(actual, expected, comparison) -%}
    {#- One check against one value; `comparison` comes from the check_paths seed. -#}
    coalesce(case {{ comparison }}
        when 'contains_normalized' then instr(
            lower({{ regex_replace(nfc(actual), "'\\s+'", "''") }}),
            lower({{ regex_replace(nfc(expected), "'\\s+'", "''") }})
        ) > 0
        when 'equals_ci' then lower(trim({{ actual }})) = lower(trim({{ expected }}))
        when 'equals' then trim({{ actual }}) = trim({{ expected }})
        when 'boolean' then {{ normalized_boolean(actual) }} = {{ normalized_boolean(expected) }}
        when 'contains' then instr({{ actual }}, {{ expected }}) > 0
            or instr({{ url_decoded(actual) }}, {{ expected }}) > 0
    end, false)
{%- endmacro %}

{% macro normalized_boolean(value) -%}
    case
        when lower(trim({{ value }})) in ('true', 'y', 'yes', '1') then true
        when lower(trim({{ value }})) in ('false', 'n', 'no', '0') then false
    end
{%- endmacro %}
