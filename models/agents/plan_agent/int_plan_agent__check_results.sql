{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- Every parsed check evaluated (SCORING §2.2). Message checks look at assistantMessage; UI
-- checks describe ONE UI item ("해당 항목"), so they are scored against each dataUIList entry
-- and the entry passing the most of them (first on ties) decides all of them.
{#- A row meets its checks by a join on its 기대결과 text with its parsed checks (checklist_checks),
    a few dozen rows: DuckDB builds its hash table from those, where a join by row built one from
    millions of (row, check) pairs (1M rows: 3.3M checks). Each UI entry is parsed once for
    every configured path (one extraction of a list of paths), not once per check. Inside,
    a row is joined by file_key() and record_no, two integers, not by its file's name. -#}
{%- set ui_paths = ui_check_paths() %}

with checks as (
    {{ checklist_checks(agent_rows('plan_agent', ref('int_exports__results'))) }}
),

paths as (
    select
        check_kind,
        target,
        json_path,
        comparison,
        {{ list_index_of(sql_list(ui_paths), 'json_path') }} as ui_path_no
    from {{ ref('check_paths') }}
),

text_checks as (
    -- each 기대결과 text's checks, with the path(s) and comparison of each
    select
        checks.expected_result,
        checks.check_no,
        checks.expected_value,
        paths.target,
        paths.comparison,
        paths.ui_path_no
    from checks as checks
    inner join paths on paths.check_kind = checks.check_kind
),

messages as (
    -- the rows once per column read, not one CTE read twice: DuckDB would keep that whole,
    -- every reply's UI values included (1M rows: peak memory 2.26 -> 1.63 GB)
    select
        {{ file_key('source_file') }} as file_key, record_no, expected_result, assistant_message
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
),

ui_lists as (
    select {{ file_key('source_file') }} as file_key, record_no, expected_result, ui_values
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
    where {{ list_size('ui_values') }} > 0
),

message_results as (
    -- judged before aggregating: Spark allows no NFC (a Java call) inside an aggregate
    select file_key, record_no, check_no, bool_or(passed) as passed
    from (
        select
            messages.file_key,
            messages.record_no,
            text_checks.check_no,
            {{ check_passes(
                'messages.assistant_message', 'text_checks.expected_value', 'text_checks.comparison'
            ) }} as passed
        from messages
        inner join text_checks
            on text_checks.expected_result = messages.expected_result
            and text_checks.target = 'message'
    )
    group by all
),

ui_entries as (
    select
        file_key,
        record_no,
        expected_result,
        entry_no,
        ui_value,
        {{ json_texts_at('ui_value', ui_paths) }} as ui_fields
    from (
        select
            file_key,
            record_no,
            expected_result,
            {{ unnest_numbered('ui_values', 'entry_no', 'ui_value') }}
        from ui_lists
    ) as entries
),

ui_results_per_entry as (
    -- a failed UI check whose value sits elsewhere in the item hints at a JSON path to add:
    -- looked for in each entry the check fails in (ui_results asks no more, and an entry's
    -- text is long: 1M rows, 2.3M checks × entries), and ui_results keeps the best entry's
    select
        file_key,
        record_no,
        check_no,
        entry_no,
        bool_or(passed) as passed,
        bool_or(
            case
                when not passed
                    then instr({{ json_as_text('ui_value') }}, '"' || expected_value || '"') > 0
            end
        ) as value_in_entry
    from (
        select
            ui_entries.file_key,
            ui_entries.record_no,
            text_checks.check_no,
            ui_entries.entry_no,
            ui_entries.ui_value,
            text_checks.expected_value,
            {{ check_passes(
                list_item('ui_entries.ui_fields', 'text_checks.ui_path_no'),
                'text_checks.expected_value',
                'text_checks.comparison') }} as passed
        from ui_entries
        inner join text_checks
            on text_checks.expected_result = ui_entries.expected_result
            and text_checks.target = 'ui_item'
    )
    group by all
),

entry_passes as (
    select file_key, record_no, entry_no, count_if(passed) as passed_count
    from ui_results_per_entry
    group by all
),

best_entries as (
    -- per row, the entry passing the most checks, the first on ties: two aggregates and a
    -- join back, where two windows sorted every (check, entry) pair (1M rows: 5.5 -> 4.6 s)
    select
        file_key,
        record_no,
        max_by(entry_no, passed_count * 4294967296 - entry_no) as entry_no
    from entry_passes
    group by all
),

ui_results as (
    select
        per_entry.file_key,
        per_entry.record_no,
        per_entry.check_no,
        per_entry.passed,
        not per_entry.passed and per_entry.value_in_entry as value_elsewhere_in_item
    from ui_results_per_entry as per_entry
    inner join best_entries
        on best_entries.file_key = per_entry.file_key
        and best_entries.record_no = per_entry.record_no
        and best_entries.entry_no = per_entry.entry_no
),

evaluated as (
    select *, false as value_elsewhere_in_item from message_results
    union all
    select * from ui_results
)

select
    results.source_file,
    results.file_fingerprint,
    results.record_no,
    results.item_id,
    checks.check_no,
    checks.check_kind,
    checks.expected_value,
    -- a check with no entry to look at (or a kind with no configured path) fails
    coalesce(evaluated.passed, false) as passed,
    coalesce(evaluated.value_elsewhere_in_item, false) as value_elsewhere_in_item,
    -- the status of the row each check belongs to (it has checks: error, empty or ok), here
    -- and not by a join to the item scores after them, so that the check_results mart is a
    -- view of this table, not a second copy of its rows
    {{ checklist_reply_status('results', '1') }} as item_status
from ({{ agent_rows('plan_agent', ref('int_exports__results')) }}) as results
inner join checks as checks
    on checks.expected_result = results.expected_result
left join evaluated
    on evaluated.file_key = {{ file_key('results.source_file') }}
    and evaluated.record_no = results.record_no
    and evaluated.check_no = checks.check_no
