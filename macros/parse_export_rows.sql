{% macro parse_export_rows(source, extra_columns=[]) %}
    {#-
        The staging every export shares: casts, round parsing and the Raw JSON fields typed
        (SCORING §0-§1; stg_exports__rows already made missing values null and parsed each
        cell once). `source` is a CTE of read_export_rows(); columns an agent does not export
        arrive as nulls. `extra_columns` are agent-specific text columns carried through
        (e.g. resume's Track).
    -#}
    with selected as (
        select
            source_file,
            file_fingerprint,
            record_no,
            run_id,
            item_id,
            try_cast(ordinal as integer) as ordinal,
            query_id,
            query_text,
            expected_result,
            category,
            trim(round_label) as round_label,
            try_cast(executed_at as timestamp) as executed_at,
            response_text,
            error_text,
            llm_status,
            llm_model,
            llm_score as llm_score_text,
            llm_comment,
            {%- for column in extra_columns %}
            {{ column }},
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
        from selected
    )

    select
        *,
        case
            when isfinite(response_time_raw) and response_time_raw >= 0 then response_time_raw
        end as response_time_sec
    from typed
{% endmacro %}
