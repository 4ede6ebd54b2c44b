{% macro status_label(error_when, empty_when, partial_when='false', no_checks_when='false') -%}
    {#-
        Status priority shared by every agent: error > empty > partial > no_checks > ok.
        Each argument is a SQL condition; agents pass 'false' for states they do not have.
    -#}
    case
        when coalesce({{ error_when }}, false) then 'error'
        when coalesce({{ empty_when }}, false) then 'empty'
        when coalesce({{ partial_when }}, false) then 'partial'
        when coalesce({{ no_checks_when }}, false) then 'no_checks'
        else 'ok'
    end
{%- endmacro %}
