{% macro stage_export_rows(fresh) -%}
    {#- The CTEs and select of stg_exports__rows after its rows are read: the relation or CTE
        `fresh` holds them in the landing columns. settle_direct_reads stages the rejects of
        a read in place through it as well. -#}
    {%- set text_columns = export_text_columns() %}
cleaned as (
    -- missing values ('', spaces, nan/None/null) become null here, once, for every model after
    select
        agent,
        source_file,
        file_fingerprint,
        file_records,
        record_no,
        line_no,
        {%- for column in text_columns + ['raw_json'] %}
        {%- if column == 'round_label' %}
        {{ agent_round_label(clean_text(column)) }} as {{ column }},
        {%- else %}
        {{ clean_text(column) }} as {{ column }},
        {%- endif %}
        {%- endfor %}
        extra_columns,
        csv_error_type,
        csv_error,
        csv_line
    from {{ fresh }}
),

json_extracted as (
    select
        *,
        {{ raw_json_extract('raw_json') }} as raw_fields
    from cleaned
),

json_typed as (
    select
        *,
        {{ raw_json_type('raw_json', 'raw_fields') }} as raw_json_type
    from json_extracted
),

parsed as (
    select
        {{ star_except(['raw_json', 'raw_json_type', 'raw_fields']) }},
        {{ raw_json_columns('raw_json', 'raw_json_type', 'raw_fields') }}
    from json_typed
),

timed as (
    -- an agent may take response time from a column of its own (vars.agents.<agent>)
    select
        {{ star_except(['response_time_json']) }},
        {{ agent_response_time_json('response_time_json', text_columns) }} as response_time_json
    from parsed
),

keyed as (
    select
        *,
        trim(item_id) as item_key,
        trim(query_id) as query_key,
        trim(round_label) as round_key,
        {{ round_room('round_label') }} as round_room,
        {{ round_repeat('round_label') }} as round_repeat,
        raw_json_is_missing and coalesce({{ text_columns | join(', ') }}) is null as is_blank
    from timed
),

checked as (
    select
        *,
        case
            when csv_error_type = 'UNQUOTED VALUE' then 'csv_bad_quote'
            when csv_error_type = 'TOO MANY COLUMNS' then 'csv_too_many_columns'
            when csv_error_type = 'MISSING COLUMNS' then 'csv_missing_columns'
            when csv_error_type in ('INVALID ENCODING', 'INVALID UNICODE')
                then 'csv_invalid_encoding'
            when csv_error_type = 'LINE SIZE OVER MAXIMUM' then 'csv_line_too_long'
            when csv_error_type is not null then 'csv_unparsable'
            when is_blank then 'empty_row'
            when item_key is null then 'missing_item_id'
            when query_key is null then 'missing_query_id'
            when round_key is null then 'missing_round_label'
            when round_room is null or round_repeat is null then 'bad_round_label'
        end as reject_code
    from keyed
)

select
    agent,
    source_file,
    file_fingerprint,
    file_records,
    record_no,
    line_no,
    {%- for column in text_columns %}
    {{ column }},
    {%- endfor %}
    {%- for column in raw_json_column_names() %}
    {{ column }},
    {%- endfor %}
    extra_columns,
    reject_code,
    case reject_code
        when 'empty_row' then 'every column is empty (blank, spaces or nan)'
        when 'missing_item_id' then
            {{ agent_header_of('item_id', 'Item ID') }} || ' is empty: the row cannot be identified'
        when 'missing_query_id' then
            {{ agent_header_of('query_id', 'Query ID') }}
            || ' is empty: the row cannot be matched across rounds'
        when 'missing_round_label' then
            {{ agent_header_of('round_label', '방/반복') }} || ' is empty: the round is unknown'
        when 'bad_round_label' then
            {{ agent_header_of('round_label', '방/반복') }} || ' "' || left(round_key, 40)
            || '" is not room/repeat like 1/1'
        else 'CSV record on line ' || line_no || ' cannot be parsed: ' || csv_error
    end as reject_reason,
    csv_line as excerpt
from checked
{%- endmacro %}


{% macro export_rows() -%}
    {#- The body of stg_exports__rows -#}
    {{ return(adapter.dispatch('export_rows', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__export_rows() -%}
    {#- Spark: this model's rows as DuckDB built them, from their copy in the landing folder
        (raw.export_rows, declared by build_started(): docs/spark.md). Not a dbt source:
        they are this model's own rows, on the other engine. -#}
    {%- set landed = api.Relation.create(schema='raw', identifier='export_rows') -%}
    {#- DuckDB's JSON columns arrive as text: Spark holds JSON as VARIANT -#}
    {%- set variants = {
        'response_time_json': 'try_parse_json(response_time_json)',
        'raw_error_json': 'try_parse_json(raw_error_json)',
        'ui_values': 'transform(ui_values, ui_value -> try_parse_json(ui_value))',
    } -%}
select
    {%- for column in (adapter.get_columns_in_relation(landed) if execute else []) %}
    {{ variants.get(column.name, column.name) }} as {{ column.name }}{{ ',' if not loop.last }}
    {%- else %}
    *
    {%- endfor %}
from {{ landed }}
where {{ new_file_versions() }}
{%- endmacro %}

{% macro spark_export_row_columns() -%}
    {#- The rows' columns as Spark reads them from Parquet: no unsigned integers -#}
    * replace (execution_count::bigint as execution_count, worker_count::bigint as worker_count)
{%- endmacro %}

{% macro duckdb__export_rows() -%}
    {%- set columns = {'agent': 'varchar', 'source_file': 'varchar',
                       'file_fingerprint': 'varchar', 'file_records': 'bigint',
                       'record_no': 'bigint', 'line_no': 'bigint'} -%}
    {%- for column in export_text_columns() + ['raw_json'] -%}
        {%- do columns.update({column: 'varchar'}) -%}
    {%- endfor -%}
    {%- do columns.update({'extra_columns': 'json', 'csv_error_type': 'varchar',
                           'csv_error': 'varchar', 'csv_line': 'varchar'}) -%}
with fresh as {{ 'materialized' if fresh_rows_buffered() }} (
    -- on an incremental build, only the exports read again (or rules changed) since the
    -- last, each read in place (direct_export_reads); the typed empty row set first
    select
        {%- for column, type in columns.items() %}
        null::{{ type }} as {{ column }}{{ ',' if not loop.last }}
        {%- endfor %}
    where false
    {{ direct_export_reads(columns.keys() | list) }}
),

{{ stage_export_rows('fresh') }}
{%- endmacro %}
