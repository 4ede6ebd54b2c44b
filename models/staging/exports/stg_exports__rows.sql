-- Every parsed CSV record with the row rules applied (SCORING §0): a record that cannot be
-- scored gets a reject_code and a reason, and read_export_rows() hands only the others to
-- the agents' staging models. The rejected ones surface in the rejected_rows mart.
-- Raw JSON is parsed here, once, while the file is read; only what the agents score of it
-- is stored (raw_json_columns()), never the multi-kB text.
{%- set text_columns = export_text_columns() | reject('equalto', 'raw_json') | list %}

{{ config_incremental_by_file() }}
{#- Row order is never relied on (record_no is a column), so the insert may run in parallel:
    about twice as fast on 2 cores. The per-file row_number() still sees file order. -#}
{{ config(
    pre_hook="set preserve_insertion_order = false",
    post_hook="reset preserve_insertion_order",
) }}

with exported as (
    {{ read_export_csv(only_changed_files=(this is not none and is_incremental())) }}
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

records as (
    {{ number_export_records('parsed') }}
),

keyed as (
    select
        *,
        trim(item_id) as item_key,
        trim(query_id) as query_key,
        trim(round_label) as round_key,
        raw_json_is_missing and coalesce({{ text_columns | join(', ') }}) is null as is_blank
    from records
),

checked as (
    select
        *,
        case
            when is_blank then 'empty_row'
            when item_key is null then 'missing_item_id'
            when query_key is null then 'missing_query_id'
            when round_key is null then 'missing_round_label'
            when not regexp_full_match(round_key, '[0-9]+/[0-9]+') then 'bad_round_label'
        end as rule_code
    from keyed
),

deduplicated as (
    -- a repeated Item ID: the first record (in file order) is scored, later ones rejected
    select
        *,
        min(record_no) over (
            partition by source_file, item_key, rule_code is null
        ) as first_record_no
    from checked
),

coded as (
    select
        *,
        coalesce(
            rule_code,
            case when rule_code is null and record_no > first_record_no then 'duplicate_item_id' end
        ) as reject_code
    from deduplicated
)

select
    agent,
    source_file,
    file_fingerprint,
    record_no,
    {%- for column in text_columns + raw_json_column_names() %}
    {{ column }},
    {%- endfor %}
    reject_code,
    case reject_code
        when 'empty_row' then 'every column is empty (blank, spaces or nan)'
        when 'missing_item_id' then 'Item ID is empty: the row cannot be identified'
        when 'missing_query_id' then 'Query ID is empty: the row cannot be matched across rounds'
        when 'missing_round_label' then '방/반복 is empty: the round is unknown'
        when 'bad_round_label' then
            '방/반복 "' || left(round_key, 40) || '" is not room/repeat like 1/1'
        when 'duplicate_item_id' then
            'Item ID repeats record ' || first_record_no || ': only the first is scored'
    end as reject_reason
from coded
