{#- Lists (DuckDB) / arrays (Spark): the few operations the models use, through dispatch. -#}

{% macro list_size(list) -%}
    {{ return(adapter.dispatch('list_size', 'agent_scoring')(list)) }}
{%- endmacro %}

{% macro duckdb__list_size(list) -%}
    len({{ list }})
{%- endmacro %}

{% macro spark__list_size(list) -%}
    array_size({{ list }})
{%- endmacro %}


{% macro list_item(list, position) -%}
    {#- The item at a 1-based position; null past the end. -#}
    {{ return(adapter.dispatch('list_item', 'agent_scoring')(list, position)) }}
{%- endmacro %}

{% macro duckdb__list_item(list, position) -%}
    {{ list }}[{{ position }}]
{%- endmacro %}

{% macro spark__list_item(list, position) -%}
    try_element_at({{ list }}, cast({{ position }} as int))
{%- endmacro %}


{% macro list_has(list, value) -%}
    {{ return(adapter.dispatch('list_has', 'agent_scoring')(list, value)) }}
{%- endmacro %}

{% macro duckdb__list_has(list, value) -%}
    list_contains({{ list }}, {{ value }})
{%- endmacro %}

{% macro spark__list_has(list, value) -%}
    array_contains({{ list }}, {{ value }})
{%- endmacro %}


{% macro list_index_of(list, value) -%}
    {#- The 1-based position of `value` in the list; null when it is not there. -#}
    {{ return(adapter.dispatch('list_index_of', 'agent_scoring')(list, value)) }}
{%- endmacro %}

{% macro duckdb__list_index_of(list, value) -%}
    list_position({{ list }}, {{ value }})
{%- endmacro %}

{% macro spark__list_index_of(list, value) -%}
    nullif(array_position({{ list }}, {{ value }}), 0)
{%- endmacro %}


{% macro split_text(text, separator) -%}
    {#- The text cut at every `separator` (one plain character) into a list. -#}
    {{ return(adapter.dispatch('split_text', 'agent_scoring')(text, separator)) }}
{%- endmacro %}

{% macro duckdb__split_text(text, separator) -%}
    string_split({{ text }}, {{ separator }})
{%- endmacro %}

{% macro spark__split_text(text, separator) -%}
    split({{ text }}, {{ separator }}, -1)
{%- endmacro %}


{% macro unnest_numbered(list, number_column, value_column) -%}
    {#- Select-list items: one row per item of `list`, with its 1-based position. -#}
    {{ return(adapter.dispatch('unnest_numbered', 'agent_scoring')(list, number_column, value_column)) }}
{%- endmacro %}

{% macro duckdb__unnest_numbered(list, number_column, value_column) -%}
    generate_subscripts({{ list }}, 1) as {{ number_column }},
    unnest({{ list }}) as {{ value_column }}
{%- endmacro %}

{% macro spark__unnest_numbered(list, number_column, value_column) -%}
    inline(transform({{ list }}, (item, i) -> named_struct(
        '{{ number_column }}', i + 1, '{{ value_column }}', item)))
{%- endmacro %}


{% macro unnest_list(list, value_column) -%}
    {#- A select-list item: one row per item of `list`. -#}
    {{ return(adapter.dispatch('unnest_list', 'agent_scoring')(list, value_column)) }}
{%- endmacro %}

{% macro duckdb__unnest_list(list, value_column) -%}
    unnest({{ list }}) as {{ value_column }}
{%- endmacro %}

{% macro spark__unnest_list(list, value_column) -%}
    explode({{ list }}) as {{ value_column }}
{%- endmacro %}


{% macro list_joined(list, separator) -%}
    {#- The items of `list` as one text, `separator` between them. -#}
    {{ return(adapter.dispatch('list_joined', 'agent_scoring')(list, separator)) }}
{%- endmacro %}

{% macro duckdb__list_joined(list, separator) -%}
    array_to_string({{ list }}, {{ separator }})
{%- endmacro %}

{% macro spark__list_joined(list, separator) -%}
    array_join({{ list }}, {{ separator }})
{%- endmacro %}


{% macro list_of(expressions) -%}
    {#- A list of the values of `expressions` (SQL texts), in that order. -#}
    {{ return(adapter.dispatch('list_of', 'agent_scoring')(expressions)) }}
{%- endmacro %}

{% macro duckdb__list_of(expressions) -%}
    list_value({{ expressions | join(', ') }})
{%- endmacro %}

{% macro spark__list_of(expressions) -%}
    array({{ expressions | join(', ') }})
{%- endmacro %}
