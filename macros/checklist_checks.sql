{% macro checklist_checks(rows) -%}
{#- One row per check parsed from a 기대결과 text (SCORING §2.1): (expected_result, check_no,
    check_kind, expected_value), once per distinct text of `rows` (a checklist agent's rows).
    A test set's 기대결과 repeats across rounds, runs and files, so this holds about as many
    rows as the test set has checks (66 for the sample, and for the 1M bench made from it),
    where one row per export row and check was 3.3M at 1M rows; the agent's check results
    give each row the checks of its text, its item scores count them. Parsed on every
    build (check_key_aliases may change): the distinct texts of a million rows take a
    fraction of a second. Accepted forms: the team's numbered Korean lines naming a field and
    quoting its value, `@check key=value; ...`, `key=value` or `key: value` lines, and a JSON
    object of key/value pairs. -#}
with texts as (
    select expected_result, row_number() over (order by expected_result) as text_id
    from (
        select distinct expected_result
        from ({{ rows }}) as agent_rows
        where expected_result is not null
    ) as distinct_texts
),

aliases as (
    select key_alias, check_kind from {{ ref('check_key_aliases') }}
),

json_checks as (
    select text_id, 0 as line_no, segment_no, check_key, raw_value
    from ({{ json_object_pairs('texts', 'text_id', 'expected_result') }})
),

line_lists as (
    select
        text_id,
        {{ split_text("replace(expected_result, chr(13), '')", 'chr(10)') }} as lines
    from texts
    where not {{ is_json_object('trim(expected_result)') }}
),

lines as (
    select text_id, line_no, trim(untrimmed_line) as line
    from (
        select text_id, {{ unnest_numbered('lines', 'line_no', 'untrimmed_line') }}
        from line_lists
    )
),

machine_segments as (
    -- `@check formType=SELECT; multiSelectAllowYn=true` and bare `key=value` / `key: value`
    select
        text_id,
        line_no,
        {{ unnest_numbered('segments', 'segment_no', 'segment') }}
    from (
        select
            text_id,
            line_no,
            {{ split_text(regex_replace('line', "'^@check\\s*'", "''", 'i'), "';'") }} as segments
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
        {{ trim_chars(
            regex_extract('segment', "'^\\s*(?:[0-9]+[.)]\\s*)?[A-Za-z]+\\s*[=:](.*)$'", 1),
            ' "“”\'`'
        ) }} as raw_value
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
    texts.expected_result,
    numbered.check_no,
    numbered.check_kind,
    numbered.expected_value
from numbered
inner join texts on texts.text_id = numbered.text_id
{%- endmacro %}
