{#-
    The exports staging reads in place (raw.export_files.read_by = 'staging'; the loader
    counted their records with DuckDB and found none it cannot parse): one read_csv per header
    shape, Raw JSON parsed by the model in the same pass, so an export's bytes are read once
    (docs/builds.md). Rendered as `union all` branches after the landed rows; the Spark target
    reads every row from the landed copy, so it renders nothing.
-#}

{% macro direct_export_reads(columns) -%}
    {{ return(adapter.dispatch('direct_export_reads', 'agent_scoring')(columns)) }}
{%- endmacro %}

{% macro default__direct_export_reads(columns) -%}
{%- endmacro %}

{% macro duckdb__direct_export_reads(columns) -%}
    {#- `columns`: the landing columns every branch gives, in order -#}
    {%- set files = listed_export_files() -%}
    {%- if files is not none -%}
        {%- set groups = run_query(direct_export_groups(files)) -%}
        {%- for group in groups.rows %}
    union all
    {{ direct_export_read(fromjson(group[0]), fromjson(group[1]), columns) }}
        {%- endfor %}
    {%- endif -%}
{%- endmacro %}


{% macro listed_export_files() -%}
    {#- base_exports__files, for a query at compile time; none where it cannot be asked: a
        parse, a unit test (no `this`), or `dbt compile` before the first build (no loader
        has listed a file yet) -#}
    {%- set files = ref('base_exports__files') -%}
    {%- if execute and this is not none and load_relation(files) is not none -%}
        {{ return(files) }}
    {%- endif -%}
    {{ return(none) }}
{%- endmacro %}


{% macro direct_export_groups(files) -%}
    {#- (read_spec, the files as JSON [[path, agent, source_file, fingerprint], ...]) of the
        files to read -#}
    select
        read_spec,
        to_json(list(
            [source_path, agent, source_file, {{ landed_file_fingerprint('files') }}]
            order by source_path
        ))::varchar as files
    from {{ files }} as files
    where {{ direct_export_filter('files') }}
    group by read_spec
    order by read_spec
{%- endmacro %}


{% macro direct_export_filter(files) -%}
    {#- The files staging reads in place on this build -#}
    {{ files }}.read_by = 'staging' and {{ new_export_filter(files) }}
{%- endmacro %}


{% macro new_export_filter(files) -%}
    {#- The files whose rows staging takes on this build, read in place or landed: all of
        them on a full build, those whose fingerprint the model has not stored on an
        incremental one -#}
    {{ files }}.problem is null
    {%- if is_incremental() %}
        and {{ landed_file_fingerprint(files) }} not in (
            select distinct file_fingerprint from {{ this }}
        )
    {%- endif %}
{%- endmacro %}


{% macro fresh_rows_buffered() -%}
    {{ return(adapter.dispatch('fresh_rows_buffered', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__fresh_rows_buffered() -%}
    {{ return(false) }}
{%- endmacro %}

{% macro duckdb__fresh_rows_buffered() -%}
    {#- Whether stg_exports__rows keeps the rows it reads (a materialized CTE) before it
        cleans and parses them: the exports whose rows it takes on this build, read in place
        or landed (kept too), come to at most var direct_read_buffer_bytes. A read with
        ordinality runs on one thread, and so does everything after it in the same pipeline;
        kept rows are cleaned and parsed on every thread (one 376 MB export: 3.3 -> 2.1 s,
        for 0.1 s more CPU and up to 200 MB more memory). Many files are read side by side
        anyway, and more bytes than that would spill to disk. -#}
    {%- set files = listed_export_files() -%}
    {%- if files is none -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set found = run_query(
        'select coalesce(sum(size_bytes), 0) from ' ~ files ~ ' as files where '
        ~ new_export_filter('files')) -%}
    {{ return(found.rows[0][0] <= var('direct_read_buffer_bytes')) }}
{%- endmacro %}


{% macro direct_export_read(spec, files, columns) -%}
    {#- The files of `files` ([path, agent, source_file, fingerprint]), which share the header
        shape `spec` (loader read_spec_json): one strict read_csv each (every record parses:
        the loader checked), whose ordinality is the record's number in its file. One read
        per file: a multi-file read with ordinality took 4.1 s where the same read without
        took 2.3 s (80 files); one read per file, 12.5 s against 11.3 s (374 files, 1M
        rows). -#}
    {%- set read_names = {} -%}
    {%- for name in spec.columns if not name.startswith('extra_') -%}
        {%- do read_names.update({name: name}) -%}
    {%- endfor -%}
    {%- for alias in spec.aliases -%}
        {%- do read_names.update({alias[0]: alias[1]}) -%}
    {%- endfor -%}
    {%- set extras = [] -%}
    {%- for name in spec.columns if name.startswith('extra_') -%}
        {%- do extras.append(sql_string(spec.json_keys[name]) ~ ', read_rows.' ~ name) -%}
    {%- endfor -%}
    {%- set given = {
        'agent': 'read_rows.agent',
        'source_file': 'read_rows.source_file',
        'file_fingerprint': 'read_rows.file_fingerprint',
        'record_no': 'read_rows.ordinality::bigint',
        'line_no': 'null::bigint',
        'extra_columns': ('json_object(' ~ extras | join(', ') ~ ')') if extras else 'null::json',
    } -%}
    {%- set read_columns = [] -%}
    {%- for name in spec.columns -%}
        {%- do read_columns.append(sql_string(name) ~ ": 'VARCHAR'") -%}
    {%- endfor -%}
    select
        {%- for column in columns %}
        {%- if column in given %}
        {{ given[column] }} as {{ column }}{{ ',' if not loop.last }}
        {%- elif column in read_names %}
        read_rows.{{ read_names[column] }} as {{ column }}{{ ',' if not loop.last }}
        {%- else %}
        null::varchar as {{ column }}{{ ',' if not loop.last }}
        {%- endif %}
        {%- endfor %}
    from (
        {%- for file in files %}
        select
            {{ sql_string(file[1]) }} as agent,
            {{ sql_string(file[2]) }} as source_file,
            {{ sql_string(file[3]) }} as file_fingerprint,
            *
        from read_csv(
            {{ sql_string(file[0]) }},
            header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
            max_line_size = {{ var('csv_max_line_bytes') }},
            columns = { {{- read_columns | join(', ') -}} }
        ) with ordinality
        {{ 'union all' if not loop.last }}
        {%- endfor %}
    ) as read_rows
{%- endmacro %}
