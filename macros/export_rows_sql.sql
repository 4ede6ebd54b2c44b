{#-
    The SQL of stg_exports__rows for some export files (export_files_to_read()): read them,
    clean missing values, parse Raw JSON once, apply the row rules. The model runs it on the
    first batch of files; insert_remaining_export_rows() inserts the others.
-#}
{% macro export_rows_sql(files) %}
{%- set text_columns = export_text_columns() | reject('equalto', 'raw_json') | list %}

with exported as (
    {{ read_export_csv(files) }}
),

cleaned as (
    -- missing values ('', spaces, nan/None/null) become null here, once, for every model after
    select * replace (
        {%- for column in text_columns + ['raw_json'] %}
        {{ clean_text(column) }} as {{ column }}{{ "," if not loop.last }}
        {%- endfor %}
    )
    from exported
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
        * exclude (raw_json, raw_json_type, raw_fields),
        {{ raw_json_columns('raw_json', 'raw_json_type', 'raw_fields') }}
    from json_typed
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
    from parsed
),

checked as (
    select
        *,
        case
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
    record_no,
    {%- for column in text_columns + raw_json_column_names() %}
    {{ column }},
    {%- endfor %}
    extra_columns,
    reject_code,
    case reject_code
        when 'empty_row' then 'every column is empty (blank, spaces or nan)'
        when 'missing_item_id' then 'Item ID is empty: the row cannot be identified'
        when 'missing_query_id' then 'Query ID is empty: the row cannot be matched across rounds'
        when 'missing_round_label' then '방/반복 is empty: the round is unknown'
        when 'bad_round_label' then
            '방/반복 "' || left(round_key, 40) || '" is not room/repeat like 1/1'
    end as reject_reason
from checked
{% endmacro %}
