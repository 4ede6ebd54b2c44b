{% macro rag_read_csv_rows(pattern) -%}
    {#-
        Every data row of every CSV matching `pattern` in the input directory as a JSON object
        keyed by header name (`row_json`), with `source_file` and `row_no` (1-based, per
        file). Optional columns are then simply absent keys; no file → an empty select.
    -#}
    {%- set files = rag_input_files(pattern) -%}
    {{- rag_input_files_comment(files) }}
    {%- if files | length == 0 %}
        select
            null::varchar as source_file,
            null::bigint as row_no,
            null::json as row_json
        where false
    {%- else -%}
        {%- for f in files %}
        select
            regexp_extract(rows.filename, '[^/\\]+$') as source_file,
            row_number() over () as row_no,
            to_json(rows) as row_json
        from read_csv(
            {{ sql_string(f[0]) }},
            header = true,
            all_varchar = true,
            filename = true
        ) as rows
        {{ "union all" if not loop.last }}
        {%- endfor %}
    {%- endif -%}
{%- endmacro %}
