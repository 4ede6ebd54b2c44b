{% macro round_label_text(label) -%}
    {#-
        방/반복 as comparable text: full-width digits and slash made ASCII, every space
        (NBSP included) removed. `01/1`, `１/１` and ` 1 / 1 ` all become a room/repeat pair
        that round_room()/round_repeat() read as numbers.
    -#}
    {{ return(adapter.dispatch('round_label_text', 'agent_scoring')(label)) }}
{%- endmacro %}

{% macro duckdb__round_label_text(label) -%}
    {#- a label already like 1/1 (most are) is left as it is: translate() of every label took
        0.3 s of CPU per million rows, each time a model read the rounds -#}
    case
        when regexp_full_match({{ label }}, '[0-9]+/[0-9]+') then {{ label }}
        else regexp_replace(
            translate({{ label }}, '０１２３４５６７８９／', '0123456789/'),
            '[\s\p{Zs}\x{FEFF}]+', '', 'g'
        )
    end
{%- endmacro %}

{% macro spark__round_label_text(label) -%}
    regexp_replace(
        translate({{ label }}, '０１２３４５６７８９／', '0123456789/'),
        '[\s\p{Zs}\x{FEFF}]+', ''
    )
{%- endmacro %}

{% macro round_room(label) -%}
    try_cast({{ regex_extract(round_label_text(label), "'^(\\d+)/(\\d+)$'", 1) }} as integer)
{%- endmacro %}

{% macro round_repeat(label) -%}
    try_cast({{ regex_extract(round_label_text(label), "'^(\\d+)/(\\d+)$'", 2) }} as integer)
{%- endmacro %}
