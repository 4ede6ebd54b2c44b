{% macro reject_repeated_items() -%}
    {#- Post-hook of stg_exports__rows, after settle_direct_reads has numbered every record:
        SCORING §0's rule across records. Of the records of a file read on this build that no
        other row rule rejected, the first of an Item ID (spaces around it do not count) is
        scored and each later one is rejected as duplicate_item_id. Here, not in the model's
        select: a window there sorted every wide row (1M rows: 24.4 s against 20.4 s without
        it), and the records' numbers are only final after the settle. The Spark target reads
        the rows as DuckDB staged them, this rule applied. -#}
    {{ return(adapter.dispatch('reject_repeated_items', 'agent_scoring')()) }}
{%- endmacro %}

{% macro default__reject_repeated_items() -%}
{%- endmacro %}

{% macro duckdb__reject_repeated_items() -%}
    {%- if execute and this is not none %}
    update {{ this }} as rows
    set
        reject_code = 'duplicate_item_id',
        reject_reason = repeats.reject_reason
    from ({{ repeated_items(this, 'stg_exports__direct_reads') }}) as repeats
    where rows.file_fingerprint = repeats.file_fingerprint
        and rows.record_no = repeats.record_no
    {%- endif %}
{%- endmacro %}


{% macro repeated_items(rows, files) -%}
    {#- (file_fingerprint, record_no, first_record_no, reject_reason) of each record of
        `rows` that repeats the Item ID of an earlier record of its file, neither rejected
        by another rule; only the files whose fingerprint the relation `files` lists -#}
    with records as (
        select agent, file_fingerprint, record_no, trim(item_id) as item_key
        from {{ rows }}
        where reject_code is null
            and file_fingerprint in (select file_fingerprint from {{ files }})
    ),

    repeated_keys as (
        select file_fingerprint, item_key, min(record_no) as first_record_no
        from records
        group by file_fingerprint, item_key
        having count(*) > 1
    ),

    repeats as (
        select
            records.agent,
            records.file_fingerprint,
            records.record_no,
            repeated_keys.first_record_no
        from records
        inner join repeated_keys
            on repeated_keys.file_fingerprint = records.file_fingerprint
            and repeated_keys.item_key = records.item_key
        where records.record_no > repeated_keys.first_record_no
    )

    select
        file_fingerprint,
        record_no,
        first_record_no,
        {{ agent_header_of('item_id', 'Item ID') }} || ' repeats record ' || first_record_no
            || ': only the first is scored' as reject_reason
    from repeats
{%- endmacro %}
