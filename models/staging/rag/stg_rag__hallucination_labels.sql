{{ config(tags=['rag']) }}

-- The loader lands each label CSV as a JSON array of its rows, keyed by header name
-- trimmed and lower-cased (`Question_ID ` is question_id).
with documents as (
    select source_file, document
    from {{ ref('base_rag__documents') }}
    where kind = 'hallucination_labels' and problem is null
),

label_rows as (
    select
        source_file,
        {{ unnest_numbered(json_fields('document', ['json']), 'row_no', 'row_json') }}
    from documents
),

cells as (
    select
        source_file,
        row_no,
        {{ json_fields('row_json', {
            'question_id': 'text', 'report_file': 'text', 'hallucination': 'text'
        }) }} as cell
    from label_rows
),

extracted as (
    select
        source_file,
        row_no,
        nullif(trim(cell.question_id), '') as question_id,
        nullif(trim(cell.report_file), '') as report_file,
        nullif(trim(cell.hallucination), '') as hallucination_text
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
