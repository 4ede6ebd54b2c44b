{% macro rag_input_files(pattern) -%}
    {#-
        Files in the input directory matching `pattern` (e.g. 'qa_dataset*.json'), sorted, as
        [path, size, md5 of the content]. Listed at execute time so a build with no such file
        can still emit an empty, typed table; at parse time the list is empty. The models
        that read them print the list (rag_input_files_comment), so a changed file changes
        their SQL and thus their build key.
    -#}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set dir = input_dir().rstrip('/') -%}
    {%- set found = run_query(
        "select filename, size, md5(content) from read_blob("
        ~ sql_string(dir ~ '/' ~ pattern) ~ ") order by filename"
    ) -%}
    {%- set files = [] -%}
    {%- for row in found -%}
        {%- do files.append([row[0], row[1], row[2]]) -%}
    {%- endfor -%}
    {{ return(files) }}
{%- endmacro %}


{% macro rag_input_files_comment(files) -%}
    {%- for path, size, digest in files %}
    -- input: {{ path | replace('\n', ' ') }} ({{ size }} bytes, md5 {{ digest }})
    {%- endfor %}
{%- endmacro %}
