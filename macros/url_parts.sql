{% macro url_path(url) -%}
    {#-
        The path of a URL or of a bare path, compared the way people mean "the same page":
        scheme and host, query, fragment and trailing slashes dropped ('/' for the root).
    -#}
    {{ return(adapter.dispatch('url_path', 'agent_scoring')(url)) }}
{%- endmacro %}

{% macro duckdb__url_path(url) -%}
    coalesce(nullif(regexp_replace(
        regexp_replace(
            regexp_replace({{ url }}, '^[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*', ''),
            '[?#].*$', ''
        ),
        '/+$', ''
    ), ''), '/')
{%- endmacro %}

{% macro spark__url_path(url) -%}
    coalesce(nullif(regexp_replace(
        regexp_replace(
            regexp_replace({{ url }}, '^[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*', ''),
            '[?#].*$', ''
        ),
        '/+$', ''
    ), ''), '/')
{%- endmacro %}

{% macro url_query_values(url, name) -%}
    {#- Every value of query parameter `name` in a URL, URL-decoded, as a list. -#}
    {{ return(adapter.dispatch('url_query_values', 'agent_scoring')(url, name)) }}
{%- endmacro %}

{% macro duckdb__url_query_values(url, name) -%}
    list_transform(
        regexp_extract_all({{ url }}, '[?&]{{ name }}=([^&#]*)', 1),
        lambda value: url_decode(value)
    )
{%- endmacro %}

{% macro spark__url_query_values(url, name) -%}
    transform(
        regexp_extract_all({{ url }}, '[?&]{{ name }}=([^&#]*)', 1),
        value -> try_url_decode(value)
    )
{%- endmacro %}

{% macro path_pattern(path) -%}
    {#-
        A regular expression matching `path` exactly, where a placeholder such as `{planId}`
        matches any number: an expected URL names the page, not the record.
    -#}
    {{ return(adapter.dispatch('path_pattern', 'agent_scoring')(path)) }}
{%- endmacro %}

{% macro duckdb__path_pattern(path) -%}
    '^' || regexp_replace(
        regexp_replace({{ path }}, '([.+*?^$()\[\]|\\{}])', '\\\1', 'g'),
        '\\\{[A-Za-z_][A-Za-z0-9_]*\\\}', '[0-9]+', 'g'
    ) || '$'
{%- endmacro %}

{% macro spark__path_pattern(path) -%}
    '^' || regexp_replace(
        regexp_replace({{ path }}, '([.+*?^$()\[\]|\\{}])', '\\$1'),
        '\\\{[A-Za-z_][A-Za-z0-9_]*\\\}', '[0-9]+'
    ) || '$'
{%- endmacro %}
