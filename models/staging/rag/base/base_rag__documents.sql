{{ config(materialized='table', tags=['rag'],
    post_hook=["{{ refuse_rag_documents() }}", "{{ copy_to_landing('rag_documents') }}"]) }}
-- Every RAG file of the input folder (vars.rag_files), read by DuckDB where it lies: a
-- dataset or judge report as its JSON text, a label CSV as a JSON array of its rows keyed by
-- header name (trimmed, lower-cased); or why it cannot be read. Each stg_rag__* model takes
-- the documents of its kind from here. Rebuilt every build: a few small files.
-- On Spark, the DuckDB build's copy of this table (copy_to_landing) is the source.
-- depends_on: {{ source('rag', 'rag_documents') }}
{{ rag_documents() }}
