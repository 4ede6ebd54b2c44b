{#-
    Incremental builds keyed by source file (a new export must not re-parse the past), with
    dbt's own delete+insert strategy on `source_file`. Every row stores `file_fingerprint`:
    what the loader landed (stg_exports__files.fingerprint), plus the fingerprint of the rules it was
    scored with (the `agents` model computes them once per build). An incremental run
    processes only files whose current fingerprint it has not stored (their old rows are
    replaced), and its post-hook deletes the rows of files that disappeared or now give no
    row. Rules have a scope:
    - 'agent' (default): the shared rules and those of the file's own agent, so editing one
      agent's rules or adding an agent re-scores only that agent's files;
    - 'read': only what parsing a landed row depends on (stg_exports__rows: its own code), so
      tuning a scoring rule never parses a file again.
    `dbt build --full-refresh` rebuilds everything.
-#}

{% macro current_file_fingerprints() -%}
    {#- Per source file the loader landed: the fingerprint this model stores for it now. -#}
    {%- set rules = 'read_rules_fingerprint' if config.get('rules_scope') == 'read'
        else 'rules_fingerprint' -%}
    {#- read after this build's load, straight from the landing table -#}
    {%- do after_load() -%}
    select
        files.source_file,
        {{ landed_fingerprint('files') }} || '|' || agents.{{ rules }} as file_fingerprint
    from {{ source('exports', 'export_files') }} as files
    inner join {{ ref('agents') }} as agents on agents.agent = files.agent
{%- endmacro %}


{% macro landed_fingerprint(files) -%}
    {#- What a file's landed rows were read from: its content and the loader's read rules. -#}
    {{ files }}.content_hash || ':' || {{ files }}.read_key
{%- endmacro %}


{% macro files_to_refresh() -%}
    {#- Source files (a subquery) whose current fingerprint this model has not stored. -#}
    (
        select current_files.source_file
        from ({{ current_file_fingerprints() }}) as current_files
        where not exists (
            select 1 from {{ this }} as stored
            where stored.source_file = current_files.source_file
                and stored.file_fingerprint = current_files.file_fingerprint
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
    {#- Post-hook: drop rows read from a file version or under rules no longer current. -#}
    {{ return(adapter.dispatch('delete_stale_file_rows', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__delete_stale_file_rows() -%}
    delete from {{ this }} as stored
    where not exists (
        select 1 from ({{ current_file_fingerprints() }}) as current_files
        where current_files.source_file = stored.source_file
            and current_files.file_fingerprint = stored.file_fingerprint
    )
{%- endmacro %}

{% macro spark__delete_stale_file_rows() -%}
    {{ spark_drop_stale_partitions(['source_file'], 'file_fingerprint',
                                   current_file_fingerprints()) }}
{%- endmacro %}

{% macro spark_drop_stale_partitions(keys, fingerprint, current) -%}
    {#- parquet has no delete: drop the partitions (by `keys`) whose stored `fingerprint` is
        not in the query `current`, read when the post-hook runs -#}
    {%- if execute -%}
        {%- set matches = [] -%}
        {%- for key in keys + [fingerprint] -%}
            {%- do matches.append('now.' ~ key ~ ' = stored.' ~ key) -%}
        {%- endfor -%}
        {%- set stale = run_query(
            "select distinct stored." ~ keys | join(', stored.') ~ " from " ~ this ~ " as stored
            where not exists (select 1 from (" ~ current ~ ") as now where "
            ~ matches | join(' and ') ~ ")") -%}
        {%- for row in stale.rows -%}
            {%- set values = [] -%}
            {%- for key in keys -%}
                {%- do values.append(key ~ ' = ' ~ sql_string(row[loop.index0])) -%}
            {%- endfor -%}
            {%- do run_query('alter table ' ~ this ~ ' drop if exists partition ('
                ~ values | join(', ') ~ ')') -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro %}


{% macro config_incremental_by_file(rules_scope='agent') -%}
    {#- The config every per-file model shares; call it at the top of the model.
        A new column is a code change, which changes the fingerprint: every file is
        re-scored, so appending the column is safe (dbt allows no other schema change on a
        model with a contract). -#}
    {{ config(
        materialized='incremental',
        on_schema_change='append_new_columns',
        rules_scope=rules_scope,
        post_hook="{{ delete_stale_file_rows() }}",
        **replace_by_key_config(['source_file'])
    ) }}
{%- endmacro %}


{% macro replace_by_key_config(key) -%}
    {#- How an incremental model replaces every row of a key (a file, a pair of runs) -#}
    {{ return(adapter.dispatch('replace_by_key_config', 'agent_scoring')(key)) }}
{%- endmacro %}

{% macro default__replace_by_key_config(key) -%}
    {{ return({'incremental_strategy': 'delete+insert',
               'unique_key': key[0] if key | length == 1 else key}) }}
{%- endmacro %}

{% macro spark__replace_by_key_config(key) -%}
    {#- parquet has no delete: the key is the partition, and a new build overwrites it -#}
    {{ return({'incremental_strategy': 'insert_overwrite', 'partition_by': key,
               'file_format': 'parquet'}) }}
{%- endmacro %}


{% macro after_load(loader='export_loads') -%}
    {#- Makes the calling model wait for this build's load (the export_loads model, or
        rag_loads for the RAG files). The Spark target has no such model: the loader ran
        before it (its Parquet copy). -#}
    {{ return(adapter.dispatch('after_load', 'agent_scoring')(loader)) }}
{%- endmacro %}

{% macro default__after_load(loader) -%}
    {%- do ref(loader) -%}
{%- endmacro %}

{% macro spark__after_load(loader) -%}
{%- endmacro %}
