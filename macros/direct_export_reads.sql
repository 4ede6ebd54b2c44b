{#-
    The exports staging reads in place (raw.export_files.read_by = 'staging': the loader
    counted their records, and found their bytes plain enough): one read_csv per header shape,
    Raw JSON parsed by the model in the same pass, so an export's bytes are read once by
    DuckDB (docs/builds.md). Its hooks check each read against the loader's count.
    Rendered as `union all` branches after the landed rows; the Spark target
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
        shape `spec` (loader read_spec_json): one tolerant read_csv each, whose ordinality is
        the record's number among those it parsed; the records it cannot parse go to the
        rejects tables (settle_direct_reads). One read per file: a multi-file read with
        ordinality took 4.1 s where the same read without took 2.3 s (80 files); one read
        per file, 12.5 s against 11.3 s (374 files, 1M rows). Read tolerantly rather than
        strictly: 15.8 and 16.4 s against 17.4 and 17.5 s (374 files, 1M rows). -#}
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
            {#- store_rejects is not optional: with ignore_errors alone DuckDB stops at the
                first bad record and drops every record after it without a word -#}
            ignore_errors = true, store_rejects = true,
            rejects_table = '{{ direct_rejects_tables()[0] }}',
            rejects_scan = '{{ direct_rejects_tables()[1] }}',
            columns = { {{- read_columns | join(', ') -}} }
        ) with ordinality
        {{ 'union all' if not loop.last }}
        {%- endfor %}
    ) as read_rows
{%- endmacro %}


{% macro direct_rejects_tables() -%}
    {#- The temporary tables where DuckDB stores the rejects of staging's reads in place -#}
    {{ return(['stg_exports__read_rejects', 'stg_exports__read_scans']) }}
{%- endmacro %}


{% macro list_direct_reads() -%}
    {{ return(adapter.dispatch('list_direct_reads', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__list_direct_reads() -%}
{%- endmacro %}

{% macro duckdb__list_direct_reads() -%}
    {#- Pre-hook of stg_exports__rows: the exports it reads in place on this build, with the
        loader's record count, and no rejects stored yet -#}
    {%- if this is not none %}
    drop table if exists temp.main.{{ direct_rejects_tables()[0] }};
    drop table if exists temp.main.{{ direct_rejects_tables()[1] }};
    create or replace temp table stg_exports__direct_reads as
    select
        files.agent,
        files.source_path,
        files.source_file,
        {{ landed_file_fingerprint('files') }} as file_fingerprint,
        files.record_count
    from {{ ref('base_exports__files') }} as files
    where {{ direct_export_filter('files') }}
    {%- endif %}
{%- endmacro %}


{% macro settle_direct_reads() -%}
    {{ return(adapter.dispatch('settle_direct_reads', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__settle_direct_reads() -%}
{%- endmacro %}

{% macro duckdb__settle_direct_reads() -%}
    {#- Post-hook of stg_exports__rows (before the stale rows go): what the loader does for a
        file it lands, for each export read in place whose read rejected a record or parsed
        other than the scan's count. The loader's own code (agent_scoring_locate_rejects:
        agent_scoring.loader.land.locate_read_rejects) counts its records with the csv
        module, locates each reject, and says how to number the rows or why the file is
        refused. As many as DuckDB's parsed and rejected records: its rows are numbered
        among all its records, and each reject is a row of its own. Else the file is refused
        whole, `ambiguous_records`, and its rows go with the stale ones. A build with no such file
        counts the rows of the files it read, and does nothing else. -#}
    {%- if execute and this is not none -%}
    {%- set rejects, scans = direct_rejects_tables() -%}
    {%- set stored = run_query(
        "select count(*) from duckdb_tables() where temporary and table_name in ('"
        ~ rejects ~ "', '" ~ scans ~ "')").rows[0][0] == 2 -%}
    {%- set faults_sql -%}
    create or replace temp table stg_exports__read_faults as
    with reads as (
        select * from stg_exports__direct_reads
    ),

    parsed as (
        select file_fingerprint, count(*) as parsed_records
        from {{ this }}
        where file_fingerprint in (select file_fingerprint from reads)
        group by file_fingerprint
    ),

    rejected as (
        {%- if stored %}
        select
            scans.file_path as source_path,
            to_json(list({
                'line': errors.line,
                'line_byte_position': errors.line_byte_position,
                'error_type': errors.error_type::varchar,
                'error_message': errors.error_message,
                'csv_line': errors.csv_line
            } order by errors.line, errors.line_byte_position, errors.column_idx,
                errors.error_message))::varchar as found
        from temp.main.{{ rejects }} as errors
        inner join temp.main.{{ scans }} as scans
            on errors.scan_id = scans.scan_id and errors.file_id = scans.file_id
        group by scans.file_path
        {%- else %}
        select null::varchar as source_path, null::varchar as found
        where false
        {%- endif %}
    )

    select
        reads.*,
        coalesce(parsed.parsed_records, 0) as parsed_records,
        coalesce(rejected.found, '[]') as found
    from reads
    left join parsed on parsed.file_fingerprint = reads.file_fingerprint
    left join rejected on rejected.source_path = reads.source_path
    where rejected.found is not null
        or coalesce(parsed.parsed_records, 0) <> reads.record_count
    {%- endset -%}
    {%- do run_query(faults_sql) -%}
    {%- if run_query("select count(*) from stg_exports__read_faults").rows[0][0] > 0 %}
    create or replace temp table stg_exports__read_settled as
    with located as (
        select
            *,
            from_json(agent_scoring_locate_rejects(source_path, found, parsed_records),
                '{"records": "BIGINT", "rejects": [{"record_no": "BIGINT", "line_no": "BIGINT",
                  "error_type": "VARCHAR", "error_message": "VARCHAR", "csv_line": "VARCHAR"}],
                  "parsed_before": ["BIGINT"], "problem": "VARCHAR"}'
            ) as checked
        from stg_exports__read_faults
    )

    select
        * exclude (checked),
        checked.records as csv_records,
        checked.rejects as rejects,
        checked.parsed_before as parsed_before,
        checked.problem as problem,
        checked.problem is not null as ambiguous
    from located;

    {#- as the loader numbers the rows of a file it lands (land_rejects) -#}
    update {{ this }} as rows
    set record_no = rows.record_no - 1 + coalesce(list_position(list_transform(
        settled.parsed_before, lambda before: before >= rows.record_no), true),
        len(settled.parsed_before) + 1)
    from stg_exports__read_settled as settled
    where rows.file_fingerprint = settled.file_fingerprint
        and not settled.ambiguous
        and len(settled.parsed_before) > 0;

    insert into {{ this }} by name
    select * from (
        with fresh as (
            select
                settled.agent,
                settled.source_file,
                settled.file_fingerprint,
                reject.record_no,
                reject.line_no,
                {%- for column in export_text_columns() + ['raw_json'] %}
                null::varchar as {{ column }},
                {%- endfor %}
                null::json as extra_columns,
                reject.error_type as csv_error_type,
                reject.error_message as csv_error,
                reject.csv_line
            from stg_exports__read_settled as settled
            cross join unnest(settled.rejects) as rejected(reject)
            where not settled.ambiguous
        ),

        {{ stage_export_rows('fresh') }}
    );

    update {{ source('exports', 'export_files') }} as files
    set
        record_count = settled.csv_records,
        parsed_records = settled.parsed_records,
        problem_code = case when settled.ambiguous then 'ambiguous_records' end,
        problem = settled.problem
    from stg_exports__read_settled as settled
    where files.source_file = settled.source_file
    {%- endif %}
    {%- endif -%}
{%- endmacro %}

