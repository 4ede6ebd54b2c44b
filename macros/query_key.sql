{% macro query_key(query_text) -%}
    {#- 질의 as runs are paired by it when their Query IDs differ: trimmed, every run of
        whitespace one space. -#}
    {{ regex_replace('trim(' ~ query_text ~ ')', "'\\s+'", "' '") }}
{%- endmacro %}
