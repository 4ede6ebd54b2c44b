{#-
    Incremental builds keyed by source file (issue: a new export must not re-parse the past).
    A model materialized incremental with strategy 'append' stores `file_fingerprint` (size
    and mtime when the file was read) on every row; an incremental run processes only files
    whose current fingerprint it has not stored, and its post-hook deletes the rows of files
    that changed or disappeared. `dbt build --full-refresh` rebuilds everything.
-#}

{% macro files_to_refresh() -%}
    {#- Source files (a subquery) whose current fingerprint this model has not stored. -#}
    (
        select files.source_file
        from {{ ref('stg_exports__files') }} as files
        where not exists (
            select 1 from {{ this }} as stored
            where stored.source_file = files.source_file
                and stored.file_fingerprint = files.fingerprint
        )
    )
{%- endmacro %}


{% macro changed_files_only(source_file_column='source_file') -%}
    {#- A where-clause condition: everything on a full build, new/changed files otherwise. -#}
    {#- unit tests render models with no `this`: they are never incremental -#}
    {%- if this is not none and is_incremental() -%}
        {{ source_file_column }} in {{ files_to_refresh() }}
    {%- else -%}
        true
    {%- endif -%}
{%- endmacro %}


{% macro delete_stale_file_rows() -%}
    {#- Post-hook: drop rows read from a file version that is no longer in the input. -#}
    delete from {{ this }} as stored
    where not exists (
        select 1 from {{ ref('stg_exports__files') }} as files
        where files.source_file = stored.source_file
            and files.fingerprint = stored.file_fingerprint
    )
{%- endmacro %}
