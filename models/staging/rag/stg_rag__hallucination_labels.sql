{{ config(tags=['rag']) }}

with source as (
    {{ rag_read_csv_rows(var('rag_files')['hallucination_labels']) }}
),

-- Header names matched trimmed and case-insensitively (`Question_ID ` is question_id).
cells as (
    select
        source_file,
        row_no,
        map_from_entries(
            list_transform(
                map_entries(json_transform(row_json, '"MAP(VARCHAR, VARCHAR)"')),
                lambda e: {'key': lower(trim(e.key)), 'value': e.value}
            )
        ) as cell
    from source
),

extracted as (
    select
        source_file,
        row_no,
        nullif(trim(cell['question_id']), '') as question_id,
        nullif(trim(cell['report_file']), '') as report_file,
        nullif(trim(cell['hallucination']), '') as hallucination_text
    from cells
),

parsed as (
    select
        *,
        case
            when lower(hallucination_text) in ('true', 't', '1', 'yes', 'y', '예') then true
            when lower(hallucination_text) in ('false', 'f', '0', 'no', 'n', '아니오') then false
        end as is_hallucination
    from extracted
),

renamed as (
    select
        source_file as labels_file,
        row_no,
        source_file || ':' || row_no as label_row_key,
        question_id,
        -- A label names the report whose answer it judges; blank = every report.
        case
            when report_file is null or report_file like '%.json' then report_file
            else report_file || '.json'
        end as report_file,
        hallucination_text,
        is_hallucination,
        case
            when question_id is null then 'question_id is missing'
            when hallucination_text is null then 'hallucination is missing'
            when is_hallucination is null then 'hallucination is not true/false: ' || hallucination_text
        end as problem
    from parsed
)

select * from renamed
