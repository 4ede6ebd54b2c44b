{#- SQL spellings that differ by engine, through adapter.dispatch. -#}

{% macro star_except(columns, relation=none) -%}
    {#- Every column of `relation` (or of the from clause) but `columns`. -#}
    {{ return(adapter.dispatch('star_except', 'agent_scoring')(columns, relation)) }}
{%- endmacro %}

{% macro duckdb__star_except(columns, relation) -%}
    {{ relation ~ '.' if relation }}* exclude ({{ columns | join(', ') }})
{%- endmacro %}

{% macro spark__star_except(columns, relation) -%}
    {{ relation ~ '.' if relation }}* except ({{ columns | join(', ') }})
{%- endmacro %}


{% macro star_replace(relation, column, expression) -%}
    {#- Every column of `relation`, with `column` computed by `expression` instead. -#}
    {{ return(adapter.dispatch('star_replace', 'agent_scoring')(relation, column, expression)) }}
{%- endmacro %}

{% macro duckdb__star_replace(relation, column, expression) -%}
    {{ relation }}.* replace ({{ expression }} as {{ column }})
{%- endmacro %}

{% macro spark__star_replace(relation, column, expression) -%}
    {#- the column moves to the end: Spark has no replace -#}
    {{ relation }}.* except ({{ column }}), {{ expression }} as {{ column }}
{%- endmacro %}


{% macro int_div(dividend, divisor) -%}
    {#- Integer division, rounding down. -#}
    {{ return(adapter.dispatch('int_div', 'agent_scoring')(dividend, divisor)) }}
{%- endmacro %}

{% macro duckdb__int_div(dividend, divisor) -%}
    {{ dividend }} // {{ divisor }}
{%- endmacro %}

{% macro spark__int_div(dividend, divisor) -%}
    {{ dividend }} div {{ divisor }}
{%- endmacro %}


{% macro text_starts_with(text, prefix) -%}
    {{ return(adapter.dispatch('text_starts_with', 'agent_scoring')(text, prefix)) }}
{%- endmacro %}

{% macro duckdb__text_starts_with(text, prefix) -%}
    starts_with({{ text }}, {{ prefix }})
{%- endmacro %}

{% macro spark__text_starts_with(text, prefix) -%}
    startswith({{ text }}, {{ prefix }})
{%- endmacro %}


{% macro nfc(text) -%}
    {#- The text in Unicode NFC (a macOS export writes Korean decomposed). -#}
    {{ return(adapter.dispatch('nfc', 'agent_scoring')(text)) }}
{%- endmacro %}

{% macro duckdb__nfc(text) -%}
    nfc_normalize({{ text }})
{%- endmacro %}

{% macro spark__nfc(text) -%}
    {#- ICU ships with Spark; its static compose(text, false) is NFC -#}
    case
        when {{ text }} is not null
            then reflect('com.ibm.icu.text.Normalizer', 'compose', {{ text }}, false)
    end
{%- endmacro %}


{% macro url_decoded(text) -%}
    {{ return(adapter.dispatch('url_decoded', 'agent_scoring')(text)) }}
{%- endmacro %}

{% macro duckdb__url_decoded(text) -%}
    url_decode({{ text }})
{%- endmacro %}

{% macro spark__url_decoded(text) -%}
    try_url_decode({{ text }})
{%- endmacro %}


{% macro trim_chars(text, characters) -%}
    {#- `text` without any of `characters` (a plain string) at either end. -#}
    {{ return(adapter.dispatch('trim_chars', 'agent_scoring')(text, characters)) }}
{%- endmacro %}

{% macro duckdb__trim_chars(text, characters) -%}
    trim({{ text }}, {{ sql_string(characters) }})
{%- endmacro %}

{% macro spark__trim_chars(text, characters) -%}
    trim(both {{ sql_string(characters) }} from {{ text }})
{%- endmacro %}


{% macro fixed_decimals(number, digits) -%}
    {#- `number` as text with exactly `digits` decimals, rounded as Python's f"{x:.3f}"
        rounds (the double's exact value), no thousands separator. -#}
    {{ return(adapter.dispatch('fixed_decimals', 'agent_scoring')(number, digits)) }}
{%- endmacro %}

{% macro duckdb__fixed_decimals(number, digits) -%}
    printf('%.{{ digits }}f', {{ number }})
{%- endmacro %}

{% macro spark__fixed_decimals(number, digits) -%}
    {#- format_number rounds the double's exact value (java.text.DecimalFormat, US symbols);
        Java's format_string('%.3f') would round its shortest decimal half up instead -#}
    replace(format_number({{ number }}, {{ digits }}), ',', '')
{%- endmacro %}


{% macro not_materialized() -%}
    {#- Between `<cte> as` and its body: the CTE is read again wherever it is named, not kept.
        DuckDB keeps (materializes) a CTE named more than once, and a CTE of every item's
        columns then costs a copy of every item (1M rows: 0.1-0.4 s of CPU per model) where
        another scan of the table costs little. Spark inlines CTEs anyway. -#}
    {{ return(adapter.dispatch('not_materialized', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__not_materialized() -%}
{%- endmacro %}

{% macro duckdb__not_materialized() -%}
    not materialized
{%- endmacro %}
