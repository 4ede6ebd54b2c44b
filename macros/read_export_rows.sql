{% macro export_text_columns() %}
    {#- Every English column name of the export dictionary (export_columns seed), sorted. -#}
    {%- set export_columns = ref('export_columns') -%}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set found = run_query(
        "select distinct column_name from " ~ export_columns ~ " order by 1"
    ) -%}
    {{ return(found.columns[0].values() | list) }}
{% endmacro %}


{% macro export_files_to_read(only_changed_files=false) %}
    {#-
        The readable exports (all agents) as rows: agent, source_file, file_fingerprint,
        read_path, read_options (what stg_exports__files probed: pinned dialect, every
        column VARCHAR by name, unparsable records skipped and listed in `csv_rejects`),
        column_names, header_names, skipped_record_nos, size_bytes. With
        `only_changed_files`, only files whose fingerprint the calling model has not stored.
    -#}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set found = run_query(
        "select files.agent, files.source_file,"
        ~ " files.fingerprint || '|' || agents.read_rules_fingerprint as file_fingerprint,"
        ~ " files.read_path, files.read_options,"
        ~ " to_json(files.column_names)::varchar as column_names,"
        ~ " to_json(files.header_names)::varchar as header_names,"
        ~ " to_json(list_sort(list_filter(list_transform(files.csv_rejects,"
        ~ " lambda r: r.record_no), lambda n: n is not null)))::varchar as skipped_record_nos,"
        ~ " files.size_bytes"
        ~ " from " ~ ref('stg_exports__files') ~ " as files"
        ~ " inner join " ~ ref('agents') ~ " as agents on agents.agent = files.agent"
        ~ " where files.problem is null and len(files.missing_columns) = 0"
        ~ (" and files.source_file in " ~ files_to_refresh() if only_changed_files else "")
        ~ " order by files.agent, files.source_file"
    ) -%}
    {{ return(found.rows) }}
{% endmacro %}


{% macro export_read_batches(only_changed_files=false) %}
    {#- export_files_to_read() in batches of at most vars.read_batch_files files and
        vars.read_batch_bytes bytes (a bigger file is a batch of its own). -#}
    {%- set batches = [] -%}
    {%- set current = namespace(files=[], bytes=0) -%}
    {%- for f in export_files_to_read(only_changed_files) -%}
        {%- if current.files and (current.files | length >= var('read_batch_files')
                or current.bytes + f['size_bytes'] > var('read_batch_bytes')) -%}
            {%- do batches.append(current.files) -%}
            {%- set current.files, current.bytes = [], 0 -%}
        {%- endif -%}
        {%- set current.files = current.files + [f] -%}
        {%- set current.bytes = current.bytes + f['size_bytes'] -%}
    {%- endfor -%}
    {%- if current.files -%}
        {%- do batches.append(current.files) -%}
    {%- endif -%}
    {{ return(batches) }}
{% endmacro %}


{% macro insert_remaining_export_rows() %}
    {#-
        Post-hook of stg_exports__rows: the batches the model's statement did not read (the
        files whose fingerprint it has not stored yet, once that statement ran), one insert
        each. Before the model's first build there is nothing to read from: it renders empty.
    -#}
    {#- the adapter's relation cache does not know the table this very node just created -#}
    {%- if execute and run_query(
            "select 1 from duckdb_tables() where database_name = " ~ sql_string(this.database)
            ~ " and schema_name = " ~ sql_string(this.schema)
            ~ " and table_name = " ~ sql_string(this.identifier)) | length -%}
        {%- for batch in export_read_batches(only_changed_files=true) %}
    insert into {{ this }} by name ({{ export_rows_sql(batch) }});
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}


{% macro read_export_csv(files) %}
    {#-
        Every record DuckDB can parse from `files` (export_files_to_read()), as text: one
        read_csv per file with its probed options. Columns a file lacks arrive as null;
        columns the export_columns seed does not know are kept in `extra_columns` (a JSON
        object by header name). `record_no` is the record's number in the file (the Excel
        row minus one): records DuckDB skipped count too (export_record_no()).
    -#}
    {%- set wanted = export_text_columns() -%}
    {%- if not files %}
            select
                null::varchar as agent,
                null::varchar as source_file,
                null::varchar as file_fingerprint,
                null::bigint as record_no,
                {%- for column in wanted %}
                null::varchar as {{ column }},
                {%- endfor %}
                null::json as extra_columns
            where false
    {%- endif -%}
        {%- for f in files %}
            {%- set present = fromjson(f['column_names']) %}
            {%- set headers = fromjson(f['header_names']) %}
            {%- set skipped = fromjson(f['skipped_record_nos']) %}
            {%- if skipped %}
            select
                agent, source_file, file_fingerprint,
                {{ export_record_no(skipped) }} as record_no,
                * exclude (agent, source_file, file_fingerprint, parsed_no)
            from (
            {%- endif %}
            select
                {{ sql_string(f["agent"]) }} as agent,
                {{ sql_string(f["source_file"]) }} as source_file,
                {{ sql_string(f["file_fingerprint"]) }} as file_fingerprint,
                row_number() over () as {{ "parsed_no" if skipped else "record_no" }},
                {%- for column in wanted %}
                {{ column if column in present else "null::varchar as " ~ column }},
                {%- endfor %}
                {{ extra_columns_json(present, headers) }} as extra_columns
            from read_csv({{ sql_string(f["read_path"]) }}, {{ f["read_options"] }})
            {{- ")" if skipped }}
            {{ "union all" if not loop.last }}
        {%- endfor %}
{% endmacro %}


{% macro export_record_no(skipped_record_nos) -%}
    {#-
        The number in the file of the parsed_no-th record DuckDB parsed: parsed_no plus the
        records it skipped before it (sorted `skipped_record_nos`, known when the model is
        compiled: stg_exports__files probed them). After parsed_before[k] parsed records,
        k records had been skipped (1-based k), so the first k whose parsed_before reaches
        parsed_no tells how many came before it.
    -#}
    {%- set parsed_before = [] -%}
    {%- for record_no in skipped_record_nos -%}
        {%- do parsed_before.append(record_no - loop.index) -%}
    {%- endfor -%}
    parsed_no - 1 + coalesce(
        list_position(
            list_transform({{ parsed_before | tojson }}::bigint[], lambda b: b >= parsed_no),
            true
        ),
        {{ parsed_before | length + 1 }}
    )
{%- endmacro %}


{% macro extra_columns_json(column_names, header_names) -%}
    {#- The cells of columns outside the export dictionary, as {header: text}; else null. -#}
    {%- set extras = [] -%}
    {%- for column in column_names -%}
        {%- if column.startswith('extra_') -%}
            {%- do extras.append(sql_string(header_names[loop.index0]) ~ ', ' ~ column) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if extras -%}
        json_object({{ extras | join(', ') }})
    {%- else -%}
        null::json
    {%- endif -%}
{%- endmacro %}


{% macro raw_json_column_names() %}
    {#- The columns raw_json_columns() makes of a Raw JSON cell (stg_exports__rows). -#}
    {{ return([
        'raw_json_is_missing', 'raw_json_is_valid', 'raw_json_chars', 'raw_json_problem',
        'assistant_message', 'ui_values', 'response_time_json', 'raw_error_json',
        'execution_count', 'worker_count',
    ]) }}
{% endmacro %}


{% macro reject_repeated_item_ids() %}
    {#-
        Post-hook of stg_exports__rows: of the records of a file that share an Item ID and
        break no other rule, the first (in file order) is scored and the later ones get
        reject_code duplicate_item_id. Reads three narrow columns; idempotent.
    -#}
    update {{ this }} as stored
    set reject_code = 'duplicate_item_id',
        reject_reason = 'Item ID repeats record ' || repeated.first_record_no
            || ': only the first is scored'
    from (
        select
            source_file,
            record_no,
            min(record_no) over (partition by source_file, trim(item_id)) as first_record_no
        from {{ this }}
        where reject_code is null
        qualify record_no > first_record_no
    ) as repeated
    where stored.source_file = repeated.source_file
        and stored.record_no = repeated.record_no
{% endmacro %}
