{% macro csv_rows(text) -%}
    {#- The CSV rows of `text` (a VARCHAR), header first, as Python's csv module splits them:
        a field that starts with a quote runs to its closing quote (a doubled quote inside
        does not close it) or to the end of the text, and is one mark here, so what ends a
        row is a line end (CRLF, CR or LF) outside such a field; a quote anywhere else is
        text. A blank row is '' (no record); a text ending in a line end, or empty, gives one
        more ''.
        tests/test_record_count.py holds it to the csv module on any text. -#}
    string_split_regex(
        regexp_replace({{ text }}, '(^|[,\r\n])"(?:[^"]|"")*("|$)', '\1Q', 'g'),
        '\r\n|\r|\n')
{%- endmacro %}
