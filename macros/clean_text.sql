{% macro clean_text(column) -%}
    {#-
        Exports write missing values as '', spaces or the text 'nan'/'None'/'null' (pandas).
        One anchored regex instead of lower(trim(x)): that copied every multi-kB Raw JSON
        cell twice and was the costliest expression of the build (bench: 2 s per 100k rows).
    -#}
    {{ return(adapter.dispatch('clean_text', 'agent_scoring')(column)) }}
{%- endmacro %}

{% macro duckdb__clean_text(column) -%}
    case
        when regexp_full_match({{ column }}, '\p{Zs}*(?i:nan|none|null)?\p{Zs}*') then null
        else {{ column }}
    end
{%- endmacro %}

{% macro spark__clean_text(column) -%}
    case
        when regexp_like({{ column }}, '^\p{Zs}*(?i:nan|none|null)?\p{Zs}*$') then null
        else {{ column }}
    end
{%- endmacro %}
