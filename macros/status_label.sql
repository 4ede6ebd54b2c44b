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


{% macro checklist_reply_status(results, check_count) -%}
    {#- The status of a checklist agent's row of `results` (int_exports__results: a reply of
        assistantMessage and dataUIList) with `check_count` checks: an error
        (failure_message) > empty (no message, no UI item) > no_checks > ok. One rule for the
        agent's item scores and for the item_status of its check results. -#}
    {{ status_label(
        error_when=failure_message(results) ~ ' is not null',
        empty_when="coalesce(trim(" ~ results ~ ".assistant_message), '') = ''"
            ~ " and coalesce(" ~ list_size(results ~ '.ui_values') ~ ", 0) = 0",
        no_checks_when='coalesce(' ~ check_count ~ ', 0) = 0'
    ) }}
{%- endmacro %}
