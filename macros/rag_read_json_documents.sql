{% macro rag_read_json_documents(pattern, columns) -%}
    {#-
        One row per JSON document (file) matching `pattern` in the input directory, with
        `source_path`, `source_file` and the top-level `columns` ({name: duckdb type}) read by
        DuckDB's JSON reader. Pinned types keep the table's shape the same whatever a file
        holds; a key a file lacks reads as null. No file → an empty select of the same shape.
    -#}
    {%- set files = rag_input_files(pattern) -%}
    {{- rag_input_files_comment(files) }}
    {%- if files | length == 0 -%}
        {%- if execute -%}
            {{ log("note: no " ~ pattern ~ " in " ~ input_dir() ~ "; RAG tables built from it are empty", info=true) }}
        {%- endif %}
        select
            null::varchar as source_path,
            null::varchar as source_file,
            {%- for name, type in columns.items() %}
            null::{{ type }} as "{{ name }}"{{ "," if not loop.last }}
            {%- endfor %}
        where false
    {%- else %}
        select
            filename as source_path,
            regexp_extract(filename, '[^/\\]+$') as source_file,
            {%- for name in columns %}
            "{{ name }}"{{ "," if not loop.last }}
            {%- endfor %}
        from read_json(
            [{%- for f in files %}{{ sql_string(f[0]) }}{{ ", " if not loop.last }}{% endfor -%}],
            format = 'auto',
            filename = true,
            maximum_object_size = {{ var('rag_max_json_bytes', 268435456) }},
            columns = {
                {%- for name, type in columns.items() %}
                '{{ name }}': '{{ type }}'{{ "," if not loop.last }}
                {%- endfor %}
            }
        )
    {%- endif -%}
{%- endmacro %}
