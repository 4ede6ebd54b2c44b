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

{% macro without_whitespace(text) -%}
    {#- `text` with its whitespace removed: space, tab, LF, VT, FF and CR, the class `\s` of
        Java (RE2's lacks VT). translate() deletes the characters it has no replacement
        for, on DuckDB and Spark alike, at a third of the cost of a regular expression. -#}
    translate({{ text }}, ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13), '')
{%- endmacro %}
