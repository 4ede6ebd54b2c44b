{{ config(materialized='view') }}
-- The report's 데이터 품질 section, its list of xlsx cells read as empty: input_files.cell_notes
-- one row each, numbered in sheet order (the report lists the first ones).

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
    note.kind as kind
from notes
