{{ config_incremental_by_file() }}
-- One row per check parsed from 기대결과 (SCORING §2.1). Accepted forms: the team's numbered
-- Korean lines naming a field and quoting its value, `@check key=value; ...`, `key=value` or
-- `key: value` lines, and a JSON object of key/value pairs.

with results as (
    select source_file, file_fingerprint, record_no, item_id, expected_result
    from ({{ agent_rows('plan_agent') }})
    where expected_result is not null
),

texts as (
    -- parsed once per distinct text: a test set's 기대결과 repeats across rounds and files
    select expected_result, row_number() over (order by expected_result) as text_id
    from (select distinct expected_result from results)
),

aliases as (
    select key_alias, check_kind from {{ ref('check_key_aliases') }}
),

json_objects as (
    select text_id, trim(expected_result)::json as expected_json
    from texts
    where json_valid(trim(expected_result)) and json_type(trim(expected_result)) = 'OBJECT'
),

json_pairs as (
    select
        text_id,
        0 as line_no,
        generate_subscripts(json_keys(expected_json), 1) as segment_no,
        unnest(json_keys(expected_json)) as check_key,
        expected_json
    from json_objects
),

json_checks as (
    select
        text_id,
        line_no,
        segment_no,
        check_key,
        -- only a plain-word key can name a check; any other key (one holding a quote, say)
        -- is no valid JSON path and would abort the whole build
        case when {{ regex_full_match('check_key', "'[A-Za-z]+'") }} then
            {{ json_text("json_extract(expected_json, '$.\"' || check_key || '\"')") }}
        end as raw_value
    from json_pairs
),

line_lists as (
    select
        text_id,
        string_split(replace(expected_result, chr(13), ''), chr(10)) as lines
    from texts
    where not exists (
        select 1 from json_objects as j where j.text_id = texts.text_id
    )
),

lines as (
    select
        text_id,
        generate_subscripts(lines, 1) as line_no,
        trim(unnest(lines)) as line
    from line_lists
),

machine_segments as (
    -- `@check formType=SELECT; multiSelectAllowYn=true` and bare `key=value` / `key: value`
    select
        text_id,
        line_no,
        generate_subscripts(segments, 1) as segment_no,
        unnest(segments) as segment
    from (
        select
            text_id,
            line_no,
            string_split({{ regex_replace('line', "'^@check\\s*'", "''", 'i') }}, ';') as segments
        from lines
        where {{ regex_contains('line', "'^@check\\b'", 'i') }}
            or {{ regex_contains('line', "'^(?:[0-9]+[.)]\\s*)?[A-Za-z]+\\s*[=:]'") }}
    )
),

machine_checks as (
    select
        text_id,
        line_no,
        segment_no,
        {{ regex_extract('segment', "'^\\s*(?:[0-9]+[.)]\\s*)?([A-Za-z]+)\\s*[=:]'", 1) }} as check_key,
        trim(
            {{ regex_extract('segment', "'^\\s*(?:[0-9]+[.)]\\s*)?[A-Za-z]+\\s*[=:](.*)$'", 1) }},
            ' "“”''`'
        ) as raw_value
    from machine_segments
    where {{ regex_contains('segment', "'^\\s*(?:[0-9]+[.)]\\s*)?[A-Za-z]+\\s*[=:]'") }}
),

prose_checks as (
    -- 1) assistantMessage에 "채용사이트"과 관련된 … / 3) 해당 항목의 multiSelectAllowYn 값이 true인가
    select
        text_id,
        line_no,
        1 as segment_no,
        {{ regex_extract(
            'line',
            "'(assistantMessage|formType|actionType|multiSelectAllowYn|dataKey|buttonKey|buttonUrl)'",
            1
        ) }} as check_key,
        coalesce(
            nullif({{ regex_extract('line', "'[\"“”]([^\"“”]*)[\"“”]'", 1) }}, ''),
            nullif({{ regex_extract('line', "'multiSelectAllowYn\\W*(true|false|Y|N)\\b'", 1) }}, '')
        ) as raw_value
    from lines
    where not {{ regex_contains('line', "'^@check\\b'", 'i') }}
        and not {{ regex_contains('line', "'^(?:[0-9]+[.)]\\s*)?[A-Za-z]+\\s*[=:]'") }}
        and {{ regex_contains(
            'line',
            "'(assistantMessage|formType|actionType|multiSelectAllowYn|dataKey|buttonKey|buttonUrl)'"
        ) }}
),

all_checks as (
    select * from json_checks
    union all
    select * from machine_checks
    union all
    select * from prose_checks
),

resolved as (
    select
        all_checks.text_id,
        all_checks.line_no,
        all_checks.segment_no,
        aliases.check_kind,
        all_checks.raw_value as expected_value
    from all_checks
    inner join aliases on aliases.key_alias = lower(all_checks.check_key)
    where nullif(trim(all_checks.raw_value), '') is not null
),

numbered as (
    select
        text_id,
        row_number() over (partition by text_id order by line_no, segment_no) as check_no,
        check_kind,
        expected_value
    from resolved
)

select
    results.source_file,
    results.file_fingerprint,
    results.record_no,
    results.item_id,
    resolved.check_no,
    resolved.check_kind,
    resolved.expected_value
from numbered as resolved
inner join texts on texts.text_id = resolved.text_id
inner join results on results.expected_result = texts.expected_result
