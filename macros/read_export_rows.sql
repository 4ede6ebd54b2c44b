{% macro export_text_columns() %}
    {#- Every English column name any agent exports (export_columns seed), sorted. -#}
    {%- set export_columns = ref('export_columns') -%}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set found = run_query(
        "select distinct column_name from " ~ export_columns ~ " order by 1"
    ) -%}
    {{ return(found.columns[0].values() | list) }}
{% endmacro %}


{% macro read_export_csv(only_changed_files=false) %}
    {#-
        Every record DuckDB can parse from every readable export (all agents), as text.
        One read_csv per file with the options stg_exports__files probed (`read_options`:
        pinned dialect, every column VARCHAR by name, unparsable records skipped - the probe
        listed them in `csv_rejects`). Columns a file lacks arrive as null. `parsed_no` is
        the record's position among the parsed ones; number_export_records() turns it into
        the record number in the file. With `only_changed_files` (an incremental build), only
        files whose fingerprint the calling model has not stored yet are read.
    -#}
    {%- set files_relation = ref('stg_exports__files') -%}
    {%- set wanted = export_text_columns() -%}
    {%- if not execute -%}
        select null
    {%- else -%}
        {%- set files = run_query(
            "select agent, source_file, fingerprint, read_path, read_options,"
            ~ " to_json(column_names)::varchar as column_names from " ~ files_relation
            ~ " where problem is null and len(missing_columns) = 0"
            ~ (" and source_file in " ~ files_to_refresh() if only_changed_files else "")
            ~ " order by agent, source_file"
        ) -%}
        {%- if files | length == 0 %}
            select
                null::varchar as agent,
                null::varchar as source_file,
                null::varchar as file_fingerprint,
                null::bigint as parsed_no,
                {%- for column in wanted %}
                null::varchar as {{ column }}{{ "," if not loop.last }}
                {%- endfor %}
            where false
        {%- endif -%}
        {#- the rules' md5 costs 5 queries: once per model, not once per file -#}
        {%- set rules = rules_fingerprint() -%}
        {%- for f in files %}
            {%- set present = fromjson(f['column_names']) %}
            select
                '{{ f["agent"] }}' as agent,
                '{{ f["source_file"] | replace("'", "''") }}' as source_file,
                '{{ f["fingerprint"] ~ "|" ~ rules }}' as file_fingerprint,
                row_number() over () as parsed_no,
                {%- for column in wanted %}
                {{ column if column in present else "null::varchar as " ~ column }}
                {{- "," if not loop.last }}
                {%- endfor %}
            from read_csv('{{ f["read_path"] | replace("'", "''") }}', {{ f["read_options"] }})
            {{ "union all" if not loop.last }}
        {%- endfor %}
    {%- endif -%}
{% endmacro %}


{% macro read_export_rows(agent) %}
    {#-
        The rows of <agent>_*.csv that can be scored: every record of stg_exports__rows that
        no rule rejected (the rejected ones are in the rejected_rows mart, never here).
        A file without a required column stops this agent's build with one line naming the
        file and the column (other agents still build).
    -#}
    {%- set files_relation = ref('stg_exports__files') -%}
    {%- set rows_relation = ref('stg_exports__rows') -%}
    {%- set export_columns = ref('export_columns') -%}
    {%- if not execute -%}
        select null
    {%- else -%}
        {%- set wanted = run_query(
            "select column_name from " ~ export_columns ~ " where agent = '" ~ agent
            ~ "' order by column_name"
        ).columns[0].values() -%}
        {%- set incomplete = run_query(
            "select source_path, missing_columns[1] as missing_column from " ~ files_relation
            ~ " where agent = '" ~ agent ~ "' and len(missing_columns) > 0 order by source_file"
        ) -%}
        {%- for f in incomplete -%}
            {{ exceptions.raise_compiler_error(
                f['source_path'] ~ ': column "' ~ f['missing_column']
                ~ '" is missing (required for ' ~ agent ~ '); add it to the export or '
                ~ 'rename the header') }}
        {%- endfor -%}
        {%- set readable = run_query(
            "select count(*) from " ~ files_relation
            ~ " where agent = '" ~ agent ~ "' and problem is null"
        ).columns[0].values()[0] -%}
        {%- if readable == 0 -%}
            {{ log("note: no readable " ~ agent ~ "_*.csv in " ~ input_dir()
                   ~ "; " ~ agent ~ " marts will be empty", info=true) }}
        {%- endif %}
        select
            source_file,
            file_fingerprint,
            record_no,
            {%- for column in wanted %}
            {%- if column == 'raw_json' %}
            {%- for parsed in raw_json_column_names() %}
            {{ parsed }}{{ "," if not loop.last }}
            {%- endfor %}
            {%- else %}
            {{ column }}
            {%- endif %}
            {{- "," if not loop.last }}
            {%- endfor %}
        from {{ rows_relation }}
        where agent = '{{ agent }}' and reject_code is null and {{ changed_files_only() }}
    {%- endif -%}
{% endmacro %}


{% macro raw_json_column_names() %}
    {#- The columns raw_json_columns() makes of a Raw JSON cell (stg_exports__rows). -#}
    {{ return([
        'raw_json_is_missing', 'raw_json_is_valid', 'raw_json_chars', 'raw_json_problem',
        'assistant_message_json', 'data_ui_list_json', 'response_time_json', 'raw_error_json',
        'execution_count', 'worker_count',
    ]) }}
{% endmacro %}


{% macro number_export_records(parsed) %}
    {#-
        The records of `parsed` (read_export_csv(), one row per record DuckDB parsed) with
        `parsed_no` turned into the record number in the file: records DuckDB could not
        parse count too, so record_no is the Excel row number minus one.
    -#}

    with csv_rejects as (
        -- records the probe could not parse: they are missing from `parsed`
        select source_file, unnest(csv_rejects).record_no as record_no
        from {{ ref('stg_exports__files') }}
    ),

    reject_steps as (
        -- after `parsed_before` parsed records, `rejected_so_far` records had been skipped
        select
            source_file,
            record_no - row_number() over (partition by source_file order by record_no)
                as parsed_before,
            row_number() over (partition by source_file order by record_no) as rejected_so_far
        from csv_rejects
        where record_no is not null
    ),

    reject_offsets as (
        select source_file, parsed_before, max(rejected_so_far) as rejected_so_far
        from reject_steps
        group by all
    )

    select
        {{ parsed }}.* exclude (parsed_no),
        {{ parsed }}.parsed_no + coalesce(reject_offsets.rejected_so_far, 0) as record_no
    from {{ parsed }}
    asof left join reject_offsets
        on reject_offsets.source_file = {{ parsed }}.source_file
        and {{ parsed }}.parsed_no > reject_offsets.parsed_before
{% endmacro %}
