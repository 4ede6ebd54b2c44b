{% macro rag_documents() -%}
    {{ return(adapter.dispatch('rag_documents', 'agent_scoring')()) }}
{%- endmacro %}

{% macro spark__rag_documents() -%}
    select kind, source_path, source_file, size_bytes, content_hash, document, problem, loaded_at
    from {{ source('rag', 'rag_documents') }}
{%- endmacro %}

{% macro default__rag_documents() -%}
{%- set kinds = {'datasets': var('rag_files')['datasets'],
                 'judge_reports': var('rag_files')['judge_reports'],
                 'hallucination_labels': var('rag_files')['hallucination_labels']} %}
with found as (
    select
        case
            {%- for kind, pattern in kinds.items() %}
            when parse_filename(filename) glob {{ sql_string(pattern) }} then '{{ kind }}'
            {%- endfor %}
        end as kind,
        filename as source_path,
        parse_filename(filename) as source_file,
        size as size_bytes,
        md5(content) as content_hash,
        -- a UTF-8 byte order mark is no part of the text
        ltrim(try(decode(content)), chr(65279)) as text
    from read_blob({{ folder_globs(kinds.values() | list) }})
    where {{ chosen_folder('filename') }}
),

label_rows as (
    -- every label CSV's rows, by DuckDB's CSV reader: the header names trimmed and
    -- lower-cased (normalize_names), a short row's missing cells and empty cells null
    select * exclude (empty)
    from (
        select null::varchar as filename, null::varchar as empty
        where false
        union all by name
        select *
        from read_csv(
            {{ folder_globs([kinds['hallucination_labels']]) }},
            header = true, normalize_names = true, all_varchar = true, null_padding = true,
            delim = ',', quote = '"', escape = '"', filename = true, allow_empty = true,
            union_by_name = true,
            -- DuckDB pads short rows only when one thread reads a file (cells may hold
            -- newlines); label files are small
            parallel = false
        )
    ) as cells
),

label_documents as (
    select
        filename,
        json_group_array(json_merge_patch(to_json(label_rows), '{"filename": null}')) as document
    from label_rows
    group by filename
),

read as (
    select
        found.*,
        case
            when found.text is null
                then 'not UTF-8 (save the file as UTF-8)'
            when found.kind = 'hallucination_labels' and trim(found.text) = ''
                then 'empty: no header row'
            when found.kind = 'hallucination_labels' and {{ doubled_header('found.text') }}
                then 'a column appears twice in the header: ' || split_part(found.text, chr(10), 1)
            when found.kind <> 'hallucination_labels' and not json_valid(found.text)
                then 'not valid JSON'
        end as problem
    from found
)

select
    read.kind,
    read.source_path,
    read.source_file,
    read.size_bytes,
    read.content_hash,
    case
        when read.problem is not null then null
        when read.kind = 'hallucination_labels' then coalesce(label_documents.document, '[]')
        else read.text
    end as document,
    read.problem,
    current_localtimestamp() as loaded_at
from read
left join label_documents on label_documents.filename = read.source_path
{%- endmacro %}

{% macro doubled_header(text) -%}
    {#- the header's names, trimmed and lower-cased, are not all distinct -#}
    {%- set header -%}
        list_transform(string_split(rtrim(split_part({{ text }}, chr(10), 1), chr(13)), ','),
                       lambda name: lower(trim(name, ' "')))
    {%- endset %}
    (len({{ header }}) <> len(list_distinct({{ header }})))
{%- endmacro %}

{% macro refuse_rag_documents() -%}
    {#- a RAG file that cannot be read fails the RAG build here, naming the file and why,
        before any model reads it -#}
    select {{ raise_error("source_file || ': ' || problem") }}
    from {{ this }}
    where problem is not null
{%- endmacro %}

{% macro say_missing_rag_files(results) -%}
    {#- After a build that read the RAG files: which kind had no file, so that an empty RAG
        table is explained in the build's own log. -#}
    {%- if execute and target.type != 'spark' -%}
        {%- set read = results | selectattr('node.name', 'equalto', 'base_rag__documents')
                               | selectattr('status', 'equalto', 'success') | list -%}
        {%- if read -%}
            {%- set found = run_query('select distinct kind from ' ~ read[0].node.relation_name)
                                .columns[0].values() -%}
            {%- for kind in ['datasets', 'judge_reports', 'hallucination_labels']
                    if kind not in found -%}
                {{- log('note: no ' ~ var('rag_files')[kind] ~ ' in ' ~ input_dir()
                        ~ '; RAG tables built from it are empty', info=True) -}}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}
{%- endmacro %}
