{#-
    The exports staging reads in place (export_loads.read_by = 'staging': the loader
    counted their records, and found their bytes plain enough): a few multi-file read_csv
    per header shape, Raw JSON parsed by the model in the same pass, so an export's bytes are
    read once by DuckDB (docs/builds.md). Its hooks check each file's read against the
    loader's count. Rendered as `union all` branches after the landed rows; the Spark target
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
    {#- export_listing(), for a query at compile time; none where it cannot be asked: a
        parse, a unit test (no `this`), or `dbt compile` before the first build (no loader
        has listed a file yet) -#}
    {%- if execute and this is not none and load_relation(ref('export_loads')) is not none -%}
        {{ return(export_listing()) }}
    {%- endif -%}
    {{ return(none) }}
{%- endmacro %}


{% macro direct_read_plan(files) -%}
    {#- The files staging reads in place on this build, each with its read: files of one
        header shape (read_spec) in the order of their paths, cut into up to
        var direct_read_groups reads of about as many bytes each. A read numbers its rows
        on from one file to the next (ordinality), so a file's record_offset is the loader's
        count of the records before it in its read (settle_direct_reads mends the numbers
        where DuckDB parsed another count). Asked at compile time and by the pre-hook, on
        the same files: both get the same reads. -#}
    with listed as (
        select
            files.read_spec,
            files.read_path,
            files.agent,
            files.source_file,
            files.file_fingerprint,
            files.record_count,
            files.wide_rejects,
            sum(files.size_bytes) over (
                partition by files.read_spec order by files.read_path
            ) - files.size_bytes as bytes_before,
            sum(files.size_bytes) over (partition by files.read_spec) as spec_bytes
        from {{ files }} as files
        where {{ direct_export_filter('files') }}
    ),

    grouped as (
        select
            *,
            least(
                coalesce(floor(bytes_before * {{ var('direct_read_groups') }}
                    / nullif(spec_bytes, 0)), 0),
                {{ var('direct_read_groups') }} - 1
            )::integer as read_group
        from listed
    )

    select
        read_spec,
        read_group,
        read_path,
        agent,
        source_file,
        file_fingerprint,
        record_count,
        wide_rejects,
        coalesce(sum(record_count) over (
            partition by read_spec, read_group order by read_path
            rows between unbounded preceding and 1 preceding
        ), 0) as record_offset
    from grouped
{%- endmacro %}


{% macro direct_export_groups(files) -%}
    {#- (read_spec, the files of one read as JSON [[path, agent, source_file, fingerprint,
        record_offset, record_count], ...]) of each read of direct_read_plan() -#}
    with plan as (
        {{ direct_read_plan(files) }}
    )

    select
        read_spec,
        to_json(list(
            [read_path, agent, source_file, file_fingerprint, record_offset::varchar,
                record_count::varchar]
            order by read_path
        ))::varchar as files
    from plan
    group by read_spec, read_group
    order by read_spec, read_group
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
        and {{ files }}.file_fingerprint not in (
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


{% macro direct_export_read(spec, files, columns, rejects_tables=none) -%}
    {#- The files of one read (direct_export_groups: [path, agent, source_file, fingerprint,
        record_offset, record_count]), which share the header shape `spec` (loader read_spec_json): one
        tolerant multi-file read_csv, whose ordinality less the file's record_offset is the
        record's number among those its file parsed; the records it cannot parse go to the
        rejects tables (settle_direct_reads). A read with ordinality runs on one thread, so
        a few reads side by side, not one: one read_csv per file cost 13.1-13.2 s against
        9.6-10.0 s for four (staging alone, 374 files, 1M rows; docs/builds.md). Read
        tolerantly rather than strictly: 15.8 and 16.4 s against 17.4 and 17.5 s (374 files,
        1M rows). `rejects_tables`: where its rejects go, if not direct_rejects_tables(). -#}
    {%- set rejects = rejects_tables or direct_rejects_tables() -%}
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
        'agent': 'listed.agent',
        'source_file': 'listed.source_file',
        'file_fingerprint': 'listed.file_fingerprint',
        'record_no': '(read_rows.ordinality - listed.record_offset)::bigint',
        'file_records': 'listed.file_records',
        'line_no': 'null::bigint',
        'extra_columns': ('json_object(' ~ extras | join(', ') ~ ')') if extras else 'null::json',
    } -%}
    {%- set read_columns = [] -%}
    {%- for name in spec.columns -%}
        {%- do read_columns.append(sql_string(name) ~ ": 'VARCHAR'") -%}
    {%- endfor -%}
    {%- set paths = [] -%}
    {%- for file in files -%}
        {%- do paths.append(sql_string(file[0])) -%}
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
        select *
        from read_csv(
            [{{ paths | join(', ') }}],
            header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
            max_line_size = {{ var('csv_max_line_bytes') }},
            {#- store_rejects is not optional: with ignore_errors alone DuckDB stops at the
                first bad record and drops every record after it without a word -#}
            ignore_errors = true, store_rejects = true,
            rejects_table = '{{ rejects[0] }}',
            rejects_scan = '{{ rejects[1] }}',
            filename = 'export_read_path',
            columns = { {{- read_columns | join(', ') -}} }
        ) with ordinality
    ) as read_rows
    inner join (
        values
        {%- for file in files %}
        ({{ sql_string(file[0]) }}, {{ sql_string(file[1]) }}, {{ sql_string(file[2]) }},
            {{ sql_string(file[3]) }}, {{ file[4] }}::bigint,
            {{ file[5] }}::bigint){{ ',' if not loop.last }}
        {%- endfor %}
    ) as listed (read_path, agent, source_file, file_fingerprint, record_offset, file_records)
        on listed.read_path = read_rows.export_read_path
{%- endmacro %}


{% macro rejects_found(rejects, scans) -%}
    {#- (read_path, its rejects as JSON) of each file with rejects in DuckDB's rejects
        tables `rejects` and `scans` (none while DuckDB has not made them: no read rejected a
        record) -#}
    {%- set stored = run_query(
        "select count(*) from duckdb_tables() where temporary and table_name in ('"
        ~ rejects ~ "', '" ~ scans ~ "')").rows[0][0] == 2 -%}
    {%- if stored %}
    select
        scans.file_path as read_path,
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
    select null::varchar as read_path, null::varchar as found
    where false
    {%- endif %}
{%- endmacro %}


{% macro settle_alone_reads() -%}
    {#- A file of a multi-file read whose parsed count is not the loader's, or that has
        rejects, is read again alone, and its rejects are those of that read: a read of
        several files lost the reject of a record whose quote never closes at the end of a
        file that was not the read's last (DuckDB 2.0.1; tests/test_direct_reads.py). Its
        rows stay as the shared read parsed them, which are those a read alone parses. -#}
    {%- set shared = run_query(
        "select faults.read_path, faults.read_spec from stg_exports__read_faults as faults "
        ~ "where (select count(*) from stg_exports__direct_reads as reads "
        ~ "where reads.read_spec = faults.read_spec and reads.read_group = faults.read_group) > 1"
        ~ " order by faults.read_path") -%}
    {%- if shared.rows | length > 0 -%}
        {%- set alone = ['stg_exports__alone_rejects', 'stg_exports__alone_scans'] -%}
        {%- do run_query('drop table if exists temp.main.' ~ alone[0]
            ~ '; drop table if exists temp.main.' ~ alone[1]) -%}
        {%- set paths = [] -%}
        {%- for file in shared.rows -%}
            {%- do paths.append(sql_string(file[0])) -%}
            {#- every column kept: DuckDB checks the encoding of the columns it reads -#}
            {%- do run_query('create or replace temp table stg_exports__alone_rows as '
                ~ direct_export_read(fromjson(file[1]), [[file[0], '', '', '', 0, 0]],
                                     export_text_columns() + ['raw_json', 'extra_columns'],
                                     alone)) -%}
        {%- endfor -%}
        {%- set update_sql -%}
        update stg_exports__read_faults as faults
        set found = coalesce(read_alone.found, '[]')
        from (
            select listed.read_path, rejected.found
            from (select unnest([{{ paths | join(', ') }}]) as read_path) as listed
            left join ({{ rejects_found(alone[0], alone[1]) }}) as rejected
                on rejected.read_path = listed.read_path
        ) as read_alone
        where faults.read_path = read_alone.read_path
        {%- endset -%}
        {%- do run_query(update_sql ~ '; drop table temp.main.stg_exports__alone_rows') -%}
    {%- endif -%}
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
    {#- Pre-hook of stg_exports__rows: the exports it reads in place on this build, each
        with the loader's record count and its read (direct_read_plan), and no rejects
        stored yet -#}
    {%- if this is not none %}
    drop table if exists temp.main.{{ direct_rejects_tables()[0] }};
    drop table if exists temp.main.{{ direct_rejects_tables()[1] }};
    create or replace temp table stg_exports__direct_reads as
    {{ direct_read_plan(export_listing()) }}
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
        other than the scan's count. locate_read_rejects() counts its records by their
        quotes, locates each reject, and says how to number the rows or why the file is
        refused. As many as DuckDB's parsed and rejected records: its rows are numbered
        among all its records, and each reject is a row of its own. Else the file is refused
        whole, `ambiguous_records`: one row says so in place of its rows. A build with no such file
        counts the rows of the files it read, and does nothing else. -#}
    {%- if execute and this is not none -%}
    {%- set rejects, scans = direct_rejects_tables() -%}
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
        {{ rejects_found(rejects, scans) }}
    )

    select
        reads.*,
        coalesce(parsed.parsed_records, 0) as parsed_records,
        coalesce(rejected.found, '[]') as found
    from reads
    left join parsed on parsed.file_fingerprint = reads.file_fingerprint
    left join rejected on rejected.read_path = reads.read_path
    where rejected.found is not null
        or coalesce(parsed.parsed_records, 0) <> reads.record_count
    {%- endset -%}
    {%- do run_query(faults_sql) -%}
    {%- do settle_alone_reads() -%}
    {%- if run_query("select count(*) from stg_exports__read_faults").rows[0][0] > 0 %}
    {#- the rows of a file after one whose parsed count is not the loader's, in the same
        read, were numbered from the loader's counts (direct_read_plan): they move by the
        difference, so that each file's rows are numbered among its own parsed records -#}
    update {{ this }} as rows
    set record_no = rows.record_no + shifted.shift
    from (
        select
            reads.file_fingerprint,
            coalesce(sum(reads.record_count - coalesce(faults.parsed_records, reads.record_count))
                over (
                    partition by reads.read_spec, reads.read_group order by reads.read_path
                    rows between unbounded preceding and 1 preceding
                ), 0) as shift
        from stg_exports__direct_reads as reads
        left join stg_exports__read_faults as faults
            on faults.file_fingerprint = reads.file_fingerprint
    ) as shifted
    where rows.file_fingerprint = shifted.file_fingerprint
        and shifted.shift <> 0;

    create or replace temp table stg_exports__read_settled as
    {{ locate_read_rejects() }};

    {#- a row's number among the file's parsed records becomes its number among all its
        records: it moves by the rejects before it -#}
    update {{ this }} as rows
    set record_no = rows.record_no - 1 + coalesce(list_position(list_transform(
        settled.parsed_before, lambda before: before >= rows.record_no), true),
        len(settled.parsed_before) + 1)
    from stg_exports__read_settled as settled
    where rows.file_fingerprint = settled.file_fingerprint
        and not settled.ambiguous
        and len(settled.parsed_before) > 0;

    {{ insert_reject_rows(
        'select settled.agent, settled.source_file, settled.file_fingerprint,'
        ~ ' settled.csv_records as file_records, reject.*'
        ~ ' from stg_exports__read_settled as settled'
        ~ ' cross join unnest(settled.rejects) as rejected(reject)'
        ~ ' where not settled.ambiguous') }};

    {#- each row carries its file's count by quotes, which the reconciliation holds the
        rows to (input_files.rows_read) -#}
    update {{ this }} as rows
    set file_records = settled.csv_records
    from stg_exports__read_settled as settled
    where rows.file_fingerprint = settled.file_fingerprint
        and not settled.ambiguous;

    {#- an ambiguous file is refused whole: its rows give way to one row that says why
        (no record_no; input_files and rejected_files take the file's refusal from it, and
        its fingerprint keeps the file from being read again until it changes) -#}
    delete from {{ this }} as rows
    using stg_exports__read_settled as settled
    where rows.file_fingerprint = settled.file_fingerprint
        and settled.ambiguous;

    insert into {{ this }} by name
    select
        agent,
        source_file,
        file_fingerprint,
        csv_records as file_records,
        true as raw_json_is_missing,
        false as raw_json_is_valid,
        'ambiguous_records' as reject_code,
        problem as reject_reason
    from stg_exports__read_settled
    where ambiguous
    {%- endif %}
    {%- if run_query("select count(*) from stg_exports__direct_reads "
                     "where wide_rejects is not null").rows[0][0] > 0 %};
    {#- a record too wide for DuckDB was read as the empty placeholder the loader left in
        its copy (loader.bounds): its row becomes the rejected record -#}
    create or replace temp table stg_exports__wide_rejects as
    select
        reads.agent,
        reads.source_file,
        reads.file_fingerprint,
        reads.record_count as file_records,
        reject.*
    from stg_exports__direct_reads as reads
    cross join unnest(from_json(reads.wide_rejects,
        '[{"record_no": "BIGINT", "line_no": "BIGINT", "error_type": "VARCHAR",
           "error_message": "VARCHAR", "csv_line": "VARCHAR"}]')) as rejected(reject)
    where reads.wide_rejects is not null;

    delete from {{ this }} as rows
    using stg_exports__wide_rejects as wide
    where rows.file_fingerprint = wide.file_fingerprint and rows.record_no = wide.record_no;

    {{ insert_reject_rows('select * from stg_exports__wide_rejects') }}
    {%- endif %}
    {%- endif -%}
{%- endmacro %}


{% macro insert_reject_rows(rejects) -%}
    {#- Inserts into this model a rejected row for each record of the query `rejects`
        (agent, source_file, file_fingerprint, file_records, record_no, line_no, error_type,
        error_message, csv_line), staged as the model stages a row it reads -#}
    insert into {{ this }} by name
    select * from (
        with fresh as (
            select
                rejects.agent,
                rejects.source_file,
                rejects.file_fingerprint,
                rejects.file_records,
                rejects.record_no,
                rejects.line_no,
                {%- for column in export_text_columns() + ['raw_json'] %}
                null::varchar as {{ column }},
                {%- endfor %}
                null::json as extra_columns,
                rejects.error_type as csv_error_type,
                rejects.error_message as csv_error,
                rejects.csv_line
            from ({{ rejects }}) as rejects
        ),

        {{ stage_export_rows('fresh') }}
    )
{%- endmacro %}


{% macro locate_read_rejects() -%}
    {#- For each file of stg_exports__read_faults (a read that rejected a record, or parsed
        other than the loader's count): its records counted by their quotes as Python's csv
        module splits them (a quote opens a field only where the field starts; a blank line
        is no record), each of DuckDB's rejects as one entry per record with its record and
        line number, parsed_before, and why the file is refused when DuckDB's parsed and
        rejected records are another count. The file is read as bytes, so that a byte that
        is not UTF-8 counts too. As quick as the csv module on an export (1 MB: 0.1 s), slower
        on a huge one (377 MB: 12 s, 40 s if not UTF-8; docs/builds.md). -#}
    {%- set excerpt_chars = var('csv_excerpt_chars', 300) -%}
    {%- set paths = [] -%}
    {%- for row in run_query("select distinct read_path from stg_exports__read_faults").rows -%}
        {%- do paths.append(sql_string(row[0])) -%}
    {%- endfor -%}
    with faults as (
        select * from stg_exports__read_faults
    ),

    {%- if paths %}

    bytes as (
        -- as text when the file is UTF-8 (most are); else DuckDB's text of the blob, every
        -- byte other than printable ASCII, a quote and a backslash as \xNN, with the quotes
        -- and line ends made themselves again
        select
            filename as read_path,
            decoded is not null as is_utf8,
            coalesce(decoded, replace(replace(replace(content::varchar,
                '\x22', '"'), '\x0A', chr(10)), '\x0D', chr(13))) as text
        from (
            select filename, try(decode(content)) as decoded, content
            from read_blob([{{ paths | join(', ') }}])
        ) as files
    ),

    csv_rows as (
        select read_path, unnest(parts) as row_text, generate_subscripts(parts, 1) as row_no
        from (select read_path, {{ csv_rows('text') }} as parts from bytes) as split
    ),

    csv_records as (
        select
            read_path,
            row_no,
            row_text <> '' and row_no > 1 as is_record,
            sum((row_text <> '' and row_no > 1)::integer) over (
                partition by read_path order by row_no
            ) as records_through
        from csv_rows
    ),

    physical_lines as (
        -- where each line starts, in bytes (a byte of the blob's text is one character or
        -- four, \xNN)
        select
            read_path,
            line_no,
            coalesce(sum(line_bytes + 1) over (
                partition by read_path order by line_no
                rows between unbounded preceding and 1 preceding
            ), 0) as line_start
        from (
            select
                read_path,
                generate_subscripts(lines, 1) as line_no,
                unnest(list_transform(lines, lambda line:
                    case when is_utf8 then strlen(line)
                    else length(line) - 3 * ((length(line) - length(replace(line, '\x', ''))) // 2)
                    end
                )) as line_bytes
            from (select read_path, is_utf8, string_split(text, chr(10)) as lines from bytes)
        ) as measured
    ),

    found as (
        select
            read_path,
            unnest(entries) as entry,
            generate_subscripts(entries, 1) as entry_no
        from (
            select
                read_path,
                from_json(found, '[{"line": "BIGINT", "line_byte_position": "BIGINT",
                    "error_type": "VARCHAR", "error_message": "VARCHAR",
                    "csv_line": "VARCHAR"}]') as entries
            from faults
        ) as listed
    ),

    entries as (
        -- one entry per record (DuckDB may reject one several times, once per column): the
        -- first reject's position, type and line, its messages joined
        select
            read_path,
            entry.line as duckdb_line,
            list(entry.line_byte_position order by entry_no)[1] as byte_position,
            list(entry.error_type order by entry_no)[1] as error_type,
            list_reduce(list(entry.error_message order by entry_no), lambda joined, message:
                case
                    when message is null or contains(joined, message) then joined
                    when length(joined) < {{ excerpt_chars }}
                        then joined || '; ' || message
                    when suffix(joined, '…') then joined
                    else joined || '; …'
                end) as error_message,
            left(ltrim(coalesce(list(entry.csv_line order by entry_no)[1], ''), chr(13) || chr(10)),
                {{ excerpt_chars }}) as csv_line
        from found
        group by read_path, entry.line
    ),

    located as (
        -- DuckDB's line L is the file's CSV row L (blank rows too); its record number counts
        -- the records up to it
        select
            entries.read_path,
            case when csv_records.is_record then csv_records.records_through end as record_no,
            case when entries.byte_position is not null then lines.line_no end as line_no,
            entries.error_type,
            entries.error_message,
            entries.csv_line,
            coalesce(entries.byte_position, 0) as byte_order
        from entries
        left join csv_records
            on csv_records.read_path = entries.read_path
            and csv_records.row_no = entries.duckdb_line
        asof left join physical_lines as lines
            on lines.read_path = entries.read_path
            and lines.line_start <= entries.byte_position
    ),

    skipped as (
        select
            read_path,
            record_no - row_number() over (partition by read_path order by record_no)
                as parsed_before
        from located
        where record_no is not null
    ),

    per_file as (
        select
            faults.read_path,
            (select count(*) from csv_records
             where csv_records.read_path = faults.read_path and csv_records.is_record)
                as csv_records,
            (select list({
                    'record_no': located.record_no, 'line_no': located.line_no,
                    'error_type': located.error_type, 'error_message': located.error_message,
                    'csv_line': located.csv_line
                } order by located.byte_order)
             from located where located.read_path = faults.read_path) as rejects,
            (select list(skipped.parsed_before order by skipped.parsed_before)
             from skipped where skipped.read_path = faults.read_path) as parsed_before
        from faults
    ),

    {%- else %}

    per_file as (
        select
            null::varchar as read_path,
            null::bigint as csv_records,
            null::struct(record_no bigint, line_no bigint, error_type varchar,
                error_message varchar, csv_line varchar)[] as rejects,
            null::bigint[] as parsed_before
        where false
    ),

    {%- endif %}

    checked as (
        select
            faults.*,
            per_file.csv_records,
            coalesce(per_file.rejects, []) as rejects,
            coalesce(per_file.parsed_before, []) as parsed_before,
            faults.parsed_records + len(coalesce(per_file.rejects, [])) as read_records
        from faults
        inner join per_file on per_file.read_path = faults.read_path
    )

    select
        * exclude (read_records),
        case when csv_records <> read_records then
            'records are ambiguous: their quotes give ' || csv_records
            || ' records but DuckDB read ' || read_records
            || case when len(rejects) > 0 then
                ' (first unparsable record on line ' || coalesce(rejects[1].line_no::varchar, '?')
                || ')' else '' end
            || ': a quote that never closes? fix the quoting and export again'
        end as problem,
        csv_records <> read_records as ambiguous
    from checked
{%- endmacro %}
