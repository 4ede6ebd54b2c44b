{% macro rag_input_files(pattern) -%}
    {#-
        Paths in the input directory matching `pattern` (e.g. 'qa_dataset*.json'), sorted.
        Globbed at execute time so a build with no such file can still emit an empty, typed
        table; at parse time the list is empty.
    -#}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set dir = input_dir().rstrip('/') -%}
    {%- set found = run_query(
        "select file from glob('" ~ (dir ~ '/' ~ pattern) | replace("'", "''") ~ "') order by file"
    ) -%}
    {{ return(found.columns[0].values() | list) }}
{%- endmacro %}
