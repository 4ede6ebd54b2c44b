{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- Every parsed check evaluated (SCORING §2.2). Message checks look at assistantMessage; UI
-- checks describe ONE UI item ("해당 항목"), so they are scored against each dataUIList entry
-- and the entry passing the most of them (first on ties) decides all of them.
{#- Each UI entry is parsed once for every configured path (one extraction of a
    list of paths), not once per check. Inside, a row is joined by file_key() and record_no,
    two integers, not by its file's name (1M rows: 9.6 -> 8.5 s of CPU). -#}
{%- set ui_paths = ui_check_paths() %}

with messages as (
    -- the rows twice, once per column, not one CTE read twice: DuckDB would keep that
    -- whole, every reply's UI values included (1M rows: peak memory 2.26 -> 1.63 GB)
    select {{ file_key('source_file') }} as file_key, record_no, assistant_message
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
),

ui_lists as (
    select {{ file_key('source_file') }} as file_key, record_no, ui_values
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
    where {{ list_size('ui_values') }} > 0
),

item_states as (
    -- the status of the row each check belongs to (it has checks: error, empty or ok), here
    -- and not by a join to the item scores after them, so that the check_results mart is a
    -- view of this table, not a second copy of its rows (1M rows: 3.3M checks, 1.8 s)
    select
        {{ file_key('source_file') }} as file_key,
        record_no,
        {{ checklist_reply_status('results', '1') }} as item_status
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }}) as results
),

checks as (
    -- each row's checks: those parsed from its 기대결과 text
    select
        results.source_file,
        {{ file_key('results.source_file') }} as file_key,
        results.file_fingerprint,
        results.record_no,
        results.item_id,
        text_checks.check_no,
        text_checks.check_kind,
        text_checks.expected_value
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }}) as results
    inner join {{ ref('int_plan_agent__checks') }} as text_checks
        on text_checks.expected_result = results.expected_result
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

message_results as (
    -- judged before aggregating: Spark allows no NFC (a Java call) inside an aggregate
    select file_key, record_no, check_no, bool_or(passed) as passed
    from (
        select
            checks.file_key,
            checks.record_no,
            checks.check_no,
            {{ check_passes('messages.assistant_message', 'checks.expected_value', 'paths.comparison') }}
                as passed
        from checks
        inner join paths on paths.check_kind = checks.check_kind and paths.target = 'message'
        inner join messages
            on messages.file_key = checks.file_key and messages.record_no = checks.record_no
    )
    group by all
),

ui_entries as (
    select
        file_key,
        record_no,
        entry_no,
        ui_value,
        {{ json_texts_at('ui_value', ui_paths) }} as ui_fields
    from (
        select
            file_key,
            record_no,
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
            checks.file_key,
            checks.record_no,
            checks.check_no,
            ui_entries.entry_no,
            ui_entries.ui_value,
            checks.expected_value,
            {{ check_passes(
                list_item('ui_entries.ui_fields', 'paths.ui_path_no'),
                'checks.expected_value',
                'paths.comparison') }} as passed
        from checks
        inner join paths on paths.check_kind = checks.check_kind and paths.target = 'ui_item'
        inner join ui_entries
            on ui_entries.file_key = checks.file_key
            and ui_entries.record_no = checks.record_no
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
    checks.source_file,
    checks.file_fingerprint,
    checks.record_no,
    checks.item_id,
    checks.check_no,
    checks.check_kind,
    checks.expected_value,
    -- a check with no entry to look at (or a kind with no configured path) fails
    coalesce(evaluated.passed, false) as passed,
    coalesce(evaluated.value_elsewhere_in_item, false) as value_elsewhere_in_item,
    item_states.item_status
from checks
left join evaluated
    on evaluated.file_key = checks.file_key
    and evaluated.record_no = checks.record_no
    and evaluated.check_no = checks.check_no
left join item_states
    on item_states.file_key = checks.file_key
    and item_states.record_no = checks.record_no
