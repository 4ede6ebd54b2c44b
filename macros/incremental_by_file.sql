{#-
    Incremental by file, dbt's way: `delete+insert` on `source_file`. Every row carries
    `file_fingerprint`, set once in stg_exports__rows: the reading of its file
    (export_loads.file_version, new each time the loader reads the file again) and
    rules_digest(), every rule of the project. A model takes from its parent only the rows
    of fingerprints it has not stored (new_file_versions), and its post-hook drops the rows
    of fingerprints its parent no longer has: a file deleted, changed or scored under other
    rules. So a new export costs what its rows cost, and a rule edit scores every file again.
    `dbt build --full-refresh` rebuilds everything, but no edit needs it.
-#}

{% macro config_incremental_by_file(parents, pre_hook=[], post_hook=[], last_hooks=[]) -%}
    {#- The config every per-file model shares; `parents`: the model(s) its rows come from
        (['landed']: the exports the loader lists, for stg_exports__rows). `pre_hook`,
        `post_hook`: the model's own hooks; its post-hooks run before the stale rows go,
        `last_hooks` after. -#}
    {%- set parents = [parents] if parents is string else parents -%}
    {{ config(
        materialized='incremental',
        on_schema_change='append_new_columns',
        file_parents=parents,
        pre_hook=pre_hook,
        post_hook=post_hook + ["{{ delete_stale_file_rows(config.get('file_parents')) }}"]
            + last_hooks,
        **replace_by_key_config(['source_file'])
    ) }}
{%- endmacro %}


{% macro new_file_versions(source_file_column='source_file', parent_rows='true') -%}
    {#- A where-clause condition: on an incremental build, the files whose fingerprint in the
        model's parents (config_incremental_by_file; their rows matching `parent_rows`) this
        model has not stored; true otherwise. A semi-join on a small set, so a build with
        nothing new reads no row. -#}
    {#- unit tests render models with no `this`: they are never incremental -#}
    {%- if this is not none and is_incremental() -%}
        {{ source_file_column }} in (
            select current_files.source_file
            from ({{ current_file_fingerprints(config.get('file_parents'), parent_rows) }})
                as current_files
            where current_files.file_fingerprint not in (
                select distinct file_fingerprint from {{ this }}
            )
            {{ few_rows_hint() }}
        )
    {%- else -%}
        true
    {%- endif -%}
{%- endmacro %}


{% macro few_rows_hint() -%}
    {#- Ends a subquery of a few rows that a semi-join filters a big table by. -#}
    {{ return(adapter.dispatch('few_rows_hint', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__few_rows_hint() -%}
{%- endmacro %}

{% macro duckdb__few_rows_hint() -%}
    {#- Without a limit DuckDB may hash the big table and probe it with the few new files:
        0.6 to 1.2 s on 3.3M check rows with no file new, against 0.1 s with it. -#}
    limit 1000000000
{%- endmacro %}


{% macro current_file_fingerprints(parents, parent_rows='true') -%}
    {#- (source_file, file_fingerprint) the named parent models hold now; ['landed']: the
        readable exports the loader lists (export_listing(), which stg_exports__rows reads). -#}
    {%- if parents == ['landed'] %}
    select source_file, file_fingerprint
    from {{ export_listing() }} as listing
    where problem is null
    {%- endif %}
    {%- for parent in parents if parent != 'landed' %}
    select distinct source_file, file_fingerprint from {{ ref(parent) }} where {{ parent_rows }}
    {{ "union" if not loop.last }}
    {%- endfor %}
{%- endmacro %}


{% macro delete_stale_file_rows(parents) -%}
    {#- Post-hook: drop the rows of file fingerprints the parents no longer hold. -#}
    {{ return(adapter.dispatch('delete_stale_file_rows', 'agent_scoring')(parents)) }}
{%- endmacro %}

{% macro default__delete_stale_file_rows(parents) -%}
    {#- the few stale fingerprints first: a build with none deletes without reading a row -#}
    delete from {{ this }}
    where file_fingerprint in (
        select distinct file_fingerprint from {{ this }}
        except
        select file_fingerprint from ({{ current_file_fingerprints(parents) }}) as current_files
    )
{%- endmacro %}

{% macro spark__delete_stale_file_rows(parents) -%}
    {{ spark_drop_stale_partitions(['source_file'], 'file_fingerprint',
                                   current_file_fingerprints(parents)) }}
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


{% macro export_listing() -%}
    {#- The exports the loader lists (the model export_loads), each with the file_fingerprint
        its rows carry, as a subquery: what stg_exports__files and stg_exports__rows read. -#}
    {{ return(adapter.dispatch('export_listing', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__export_listing() -%}
    {#- Spark: export_loads' table as DuckDB built it, from its copy in the landing folder
        (raw.export_files, declared by build_started(): docs/spark.md), with DuckDB's
        fingerprint (Spark's rules digest need not equal it). Not a dbt source: it is that
        model's own table, on the other engine. -#}
    (select * from {{ api.Relation.create(schema='raw', identifier='export_files') }})
{%- endmacro %}

{% macro duckdb__export_listing() -%}
    {#- a file's rows' file_fingerprint: its reading by the loader and every rule
        (rules_digest()) -#}
    (
        select
            listing.*,
            coalesce(listing.file_version, listing.source_file) || '|'
                || {{ sql_string(rules_digest()) }} as file_fingerprint
        from {{ ref('export_loads') }} as listing
    )
{%- endmacro %}


{% macro after_load() -%}
    {#- Makes the calling model wait for this build's load (the export_loads model). The
        Spark target has no such model: the loader ran before it (its Parquet copy). -#}
    {{ return(adapter.dispatch('after_load', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__after_load() -%}
    {%- do ref('export_loads') -%}
{%- endmacro %}

{% macro spark__after_load() -%}
{%- endmacro %}
