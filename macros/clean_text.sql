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
        Java (RE2's lacks VT). One replace() per character, on DuckDB and Spark alike: half
        the cost of translate() and a sixth of a regular expression's (DuckDB, 1M replies). -#}
    {%- set removed = namespace(text=text) %}
    {%- for code in [32, 9, 10, 11, 12, 13] %}
        {%- set removed.text = 'replace(' ~ removed.text ~ ', chr(' ~ code ~ "), '')" %}
    {%- endfor %}
    {{- removed.text }}
{%- endmacro %}
