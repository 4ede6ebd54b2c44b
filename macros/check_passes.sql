{% macro check_passes(actual, expected, comparison) -%}
    {#- One check against one value; `comparison` comes from the check_paths seed. -#}
    coalesce(case {{ comparison }}
        when 'contains_normalized' then instr(
            lower({{ without_whitespace(nfc(actual)) }}),
            lower({{ without_whitespace(nfc(expected)) }})
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

{% macro ui_check_paths() -%}
    {#- The JSON paths of the UI checks (check_paths, target ui_item), sorted: read when the
        model is compiled, as a list of paths extracts in one parse. A unit test overrides
        it, as its check_paths rows are not a table then. -#}
    {%- if not execute %}{{ return([]) }}{% endif -%}
    {{ return(run_query(
        "select distinct json_path from " ~ ref('check_paths')
        ~ " where target = 'ui_item' and json_path is not null order by 1"
    ).columns[0].values() | list) }}
{%- endmacro %}

{% macro failed_checks_text(checks) -%}
    {#- An item's failed checks in one text, in check order: `formType SELECT, actionType
        SAVE` (an aggregate over rows of check_results aliased `checks`: score_pairs_far_apart
        and the run browser's items say them alike) -#}
    {{ string_agg_ordered(checks ~ ".check_kind || ' ' || " ~ checks ~ ".expected_value", "', '",
                          checks ~ '.check_no') }}
{%- endmacro %}
