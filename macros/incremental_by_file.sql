{#-
    Incremental builds keyed by source file (issue: a new export must not re-parse the past).
    A model materialized incremental with strategy 'append' stores `file_fingerprint` on
    every row: the file's size and mtime when it was read, plus the fingerprint of the
    scoring rules (seeds and vars) it was scored with. An incremental run processes only
    files whose current fingerprint it has not stored - so editing a rule re-scores every
    file - and its post-hook deletes the rows of files that changed or disappeared.
    `dbt build --full-refresh` rebuilds everything.
-#}

{% macro files_to_refresh() -%}
    {#- Source files (a subquery) whose current fingerprint this model has not stored. -#}
    (
        select files.source_file
        from {{ ref('stg_exports__files') }} as files
        where not exists (
            select 1 from {{ this }} as stored
            where stored.source_file = files.source_file
                and stored.file_fingerprint = {{ current_fingerprint('files.fingerprint') }}
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
            and {{ current_fingerprint('files.fingerprint') }} = stored.file_fingerprint
    )
{%- endmacro %}


{% macro current_fingerprint(file_fingerprint) -%}
    {{ file_fingerprint }} || '|{{ rules_fingerprint() }}'
{%- endmacro %}


{% macro rules_fingerprint() -%}
    {#- md5 of every seed and var the per-file models score with: a change re-scores all. -#}
    {%- set seeds = [
        ref('export_columns'), ref('check_key_aliases'), ref('check_paths'),
        ref('resume_partial_phrases'), ref('resume_track_rubrics'),
    ] -%}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set parts = [
        tojson(var('speed_rubrics')), tojson(var('llm_failed_statuses')),
        var('csv_max_line_bytes') | string,
    ] -%}
    {%- for seed in seeds -%}
        {%- set digest = run_query(
            "select coalesce(md5(string_agg(t::varchar, '|' order by t::varchar)), '') from "
            ~ seed ~ " as t"
        ) -%}
        {%- do parts.append(digest.columns[0].values()[0]) -%}
    {%- endfor -%}
    {{ return(local_md5(parts | join('/'))) }}
{%- endmacro %}


{% macro config_incremental_by_file() -%}
    {#- The config every per-file model shares; call it at the top of the model. -#}
    {{ config(
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail',
        post_hook="{{ delete_stale_file_rows() }}",
    ) }}
{%- endmacro %}
