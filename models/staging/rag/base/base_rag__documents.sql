{{ config(materialized='view', tags=['rag']) }}
{%- do after_load('rag_loads') %}
-- Every RAG file the document loader landed, as the one model that reads the source `rag`:
-- each stg_rag__* model takes the documents of its kind from here.

with source as (
    select * from {{ source('rag', 'rag_documents') }}
)

select
    kind,
    source_path,
    source_file,
    size_bytes,
    content_hash,
    document,
    problem,
    loaded_at
from source
