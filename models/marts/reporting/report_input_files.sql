{{ config(materialized='view') }}
-- The report's 데이터 품질 section, its lines on how each file was read: input_files with
-- the verdict the section prints (do the rows reconcile) and how many cells were read as empty
-- (and how many of them the section does not list: var('cell_notes_shown')).

with files as (
    select * from {{ ref('input_files') }}
)

select
    agent,
    source_file,
    rows_read,
    rows_scored,
    rows_rejected,
    rows_unaccounted,
    coalesce(rows_unaccounted = 0, false) as reconciled,
    encoding,
    read_from,
    unknown_columns,
    sheet_name,
    coalesce({{ list_size('cell_notes') }}, 0) as cell_note_count,
    greatest(coalesce({{ list_size('cell_notes') }}, 0) - {{ var('cell_notes_shown') }}, 0)
        as hidden_cell_note_count
from files
