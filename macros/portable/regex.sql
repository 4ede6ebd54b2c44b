{#-
    Regular expressions, through adapter.dispatch: a model calls regex_extract(...), never an
    engine's function, so another adapter adds its own `<adapter>__regex_extract` without
    touching a model. Patterns are RE2 syntax (DuckDB's); Spark's Java regex reads them
    too, once java_pattern() has made `\b` the ASCII word boundary RE2 means (Java's counts
    Korean letters as word characters: `true인가` has no boundary after `true` there).
-#}

{% macro java_pattern(pattern) -%}
    {{- pattern | replace('\\b', '(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))') -}}
{%- endmacro %}

{% macro regex_replace(text, pattern, replacement, flags='g') -%}
    {#- Every match (flags 'g'; add 'i' to ignore case) of `pattern` replaced. -#}
    {{ return(adapter.dispatch('regex_replace', 'agent_scoring')(text, pattern, replacement, flags)) }}
{%- endmacro %}

{% macro duckdb__regex_replace(text, pattern, replacement, flags) -%}
    regexp_replace({{ text }}, {{ pattern }}, {{ replacement }}, '{{ flags }}')
{%- endmacro %}

{% macro spark__regex_replace(text, pattern, replacement, flags) -%}
    {#- Java's regexp_replace replaces every match; a backreference is $1, not \\1 -#}
    regexp_replace({{ text }}, {{ "'(?i)' || " if 'i' in flags }}{{ java_pattern(pattern) }}, {{ replacement }})
{%- endmacro %}


{% macro regex_extract(text, pattern, group=0) -%}
    {#- The first match's `group` (0: the whole match); '' when nothing matches. -#}
    {{ return(adapter.dispatch('regex_extract', 'agent_scoring')(text, pattern, group)) }}
{%- endmacro %}

{% macro duckdb__regex_extract(text, pattern, group) -%}
    regexp_extract({{ text }}, {{ pattern }}, {{ group }})
{%- endmacro %}

{% macro spark__regex_extract(text, pattern, group) -%}
    regexp_extract({{ text }}, {{ java_pattern(pattern) }}, {{ group }})
{%- endmacro %}


{% macro regex_full_match(text, pattern) -%}
    {#- The whole text matches `pattern`. -#}
    {{ return(adapter.dispatch('regex_full_match', 'agent_scoring')(text, pattern)) }}
{%- endmacro %}

{% macro duckdb__regex_full_match(text, pattern) -%}
    regexp_full_match({{ text }}, {{ pattern }})
{%- endmacro %}

{% macro spark__regex_full_match(text, pattern) -%}
    regexp_like({{ text }}, '^(?:' || {{ java_pattern(pattern) }} || ')$')
{%- endmacro %}


{% macro regex_contains(text, pattern, flags='') -%}
    {#- Some part of the text matches `pattern` (flags 'i': ignoring case). -#}
    {{ return(adapter.dispatch('regex_contains', 'agent_scoring')(text, pattern, flags)) }}
{%- endmacro %}

{% macro duckdb__regex_contains(text, pattern, flags) -%}
    regexp_matches({{ text }}, {{ pattern }}{{ ", '" ~ flags ~ "'" if flags }})
{%- endmacro %}

{% macro spark__regex_contains(text, pattern, flags) -%}
    regexp_like({{ text }}, {{ "'(?i)' || " if 'i' in flags }}{{ java_pattern(pattern) }})
{%- endmacro %}
