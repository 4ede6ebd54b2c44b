{% macro clean_text(column) -%}
    {#- Exports write missing values as '', whitespace or the text 'nan' (pandas). -#}
    case when lower(trim({{ column }})) in ('', 'nan', 'none', 'null') then null else {{ column }} end
{%- endmacro %}
