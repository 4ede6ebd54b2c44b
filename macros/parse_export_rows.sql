{% macro parse_export_rows(source, extra_columns=[]) %}
    {#-
        The staging every export shares: missing-value cleaning, casts, round parsing and the
        Raw JSON fields typed (SCORING §0-§1; stg_exports__rows parsed each cell once).
        `source` is a CTE of read_export_rows(); columns an agent does not export arrive as
        nulls. `extra_columns` are agent-specific text columns carried through cleaned (e.g.
        resume's Track).
    -#}
    with cleaned as (
        select
            source_file,
            file_fingerprint,
            record_no,
            {{ clean_text('run_id') }} as run_id,
            {{ clean_text('item_id') }} as item_id,
            try_cast({{ clean_text('ordinal') }} as integer) as ordinal,
            {{ clean_text('query_id') }} as query_id,
            {{ clean_text('query_text') }} as query_text,
            {{ clean_text('expected_result') }} as expected_result,
            {{ clean_text('category') }} as category,
            trim({{ clean_text('round_label') }}) as round_label,
            try_cast({{ clean_text('executed_at') }} as timestamp) as executed_at,
            {{ clean_text('response_text') }} as response_text,
            {{ clean_text('error_text') }} as error_text,
            {{ clean_text('llm_status') }} as llm_status,
            {{ clean_text('llm_model') }} as llm_model,
            {{ clean_text('llm_score') }} as llm_score_text,
            {{ clean_text('llm_comment') }} as llm_comment,
            {%- for column in extra_columns %}
            {{ clean_text(column) }} as {{ column }},
            {%- endfor %}
            raw_json_is_missing,
            raw_json_is_valid,
            raw_json_chars,
            raw_json_problem,
            assistant_message_json,
            data_ui_list_json,
            response_time_json,
            raw_error_json,
            execution_count,
            worker_count
        from {{ source }}
    ),

    typed as (
        select
            source_file,
            file_fingerprint,
            record_no,
            run_id,
            item_id,
            ordinal,
            query_id,
            query_text,
            expected_result,
            category,
            round_label,
            try_cast(regexp_extract(round_label, '^(\d+)/(\d+)$', 1) as integer) as round_room,
            try_cast(regexp_extract(round_label, '^(\d+)/(\d+)$', 2) as integer) as round_repeat,
            executed_at,
            response_text,
            error_text,
            llm_status,
            llm_model,
            try_cast(llm_score_text as double) as llm_score_raw,
            llm_comment,
            {%- for column in extra_columns %}
            {{ column }},
            {%- endfor %}
            raw_json_is_missing,
            raw_json_is_valid,
            raw_json_chars,
            raw_json_problem,
            {{ json_text('assistant_message_json') }} as assistant_message,
            {{ json_ui_values('data_ui_list_json') }} as ui_values,
            {{ json_seconds('response_time_json') }} as response_time_raw,
            {{ json_text('raw_error_json') }} as raw_error,
            execution_count,
            worker_count
        from cleaned
    )

    select
        *,
        case
            when isfinite(response_time_raw) and response_time_raw >= 0 then response_time_raw
        end as response_time_sec
    from typed
{% endmacro %}
