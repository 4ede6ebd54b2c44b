{% macro read_export_rows(agent) %}
    {#-
        Every data row of every readable <agent>_*.csv as text, one select per file so each
        keeps its own header mapping and record numbers. The dialect is pinned (comma, double
        quote, "" escape, header line skipped, every column VARCHAR): DuckDB's sniffer can
        mistake a file with one broken quote for a one-column file.
    -#}
    {%- set files_relation = ref('stg_exports__files') -%}
    {%- set export_columns = ref('export_columns') -%}
    {%- if not execute -%}
        select null
    {%- else -%}
        {%- set wanted = run_query(
            "select column_name from " ~ export_columns ~ " where agent = '" ~ agent
            ~ "' order by column_name"
        ).columns[0].values() -%}
        {%- set files = run_query(
            "select source_path, source_file, fingerprint, read_path,"
            ~ " to_json(column_names)::varchar as column_names,"
            ~ " to_json(missing_columns)::varchar as missing_columns, problem from " ~ files_relation
            ~ " where agent = '" ~ agent ~ "' order by source_file"
        ) -%}
        {%- set readable = [] -%}
        {%- for f in files -%}
            {%- set missing = fromjson(f['missing_columns']) -%}
            {%- if missing | length > 0 -%}
                {{ exceptions.raise_compiler_error(
                    f['source_path'] ~ ': column "' ~ missing[0]
                    ~ '" is missing (required for ' ~ agent ~ '); add it to the export or '
                    ~ 'rename the header') }}
            {%- elif f['problem'] is none -%}
                {%- do readable.append({
                    'source_file': f['source_file'], 'fingerprint': f['fingerprint'],
                    'read_path': f['read_path'], 'column_names': fromjson(f['column_names'])}) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if readable | length == 0 -%}
            {{ log("note: no readable " ~ agent ~ "_*.csv in " ~ input_dir()
                   ~ "; " ~ agent ~ " marts will be empty", info=true) }}
            select
                null::varchar as source_file,
                null::varchar as file_fingerprint,
                null::bigint as record_no,
                {%- for column in wanted %}
                null::varchar as {{ column }}{{ "," if not loop.last }}
                {%- endfor %}
            where false
        {%- endif -%}
        {%- for f in readable %}
            {%- set present = f['column_names'] %}
            select
                '{{ f["source_file"] }}' as source_file,
                '{{ f["fingerprint"] }}' as file_fingerprint,
                row_number() over () as record_no,
                {%- for column in wanted %}
                {{ column if column in present else "null::varchar as " ~ column }}
                {{- "," if not loop.last }}
                {%- endfor %}
            from read_csv(
                '{{ f["read_path"] | replace("'", "''") }}',
                header = true,
                auto_detect = false,
                delim = ',',
                quote = '"',
                escape = '"',
                max_line_size = {{ var('csv_max_line_bytes', 67108864) }},
                columns = {
                    {%- for column in present %}
                    '{{ column }}': 'VARCHAR'{{ "," if not loop.last }}
                    {%- endfor %}
                }
            )
            {{ "union all" if not loop.last }}
        {%- endfor %}
    {%- endif -%}
{% endmacro %}
