{{ config(materialized='view') }}
-- The report's 데이터 품질 section, its list of xlsx cells read as empty: input_files.cell_notes
-- one row each, numbered in sheet order, with what the report says of it; the report lists the
-- first var('cell_notes_shown').

with files as (
    select agent, source_file, cell_notes from {{ ref('input_files') }}
),

notes as (
    select
        agent,
        source_file,
        {{ unnest_numbered('cell_notes', 'note_no', 'note') }}
    from files
)

select
    agent,
    source_file,
    note_no,
    note.cell as cell,
    note.header_name as header_name,
    note.kind as kind,
    concat_ws(', ', nullif(note.header_name, ''), case note.kind
        when 'formula' then '수식'
        when 'error' then '오류 값'
        when 'outside_header' then '헤더 밖'
        else nullif(note.kind, '')
    end) as note_text,
    note_no <= {{ var('cell_notes_shown') }} as is_shown
from notes
