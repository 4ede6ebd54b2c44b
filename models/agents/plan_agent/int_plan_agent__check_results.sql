{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- Every parsed check evaluated (SCORING §2.2). Message checks look at assistantMessage; UI
-- checks describe ONE UI item ("해당 항목"), so they are scored against each dataUIList entry
-- and the entry passing the most of them (first on ties) decides all of them.
{#- Each UI entry is parsed once for every configured path (one extraction of a
    list of paths), not once per check: the paths are read from check_paths here. -#}
{%- set ui_paths = [] %}
{%- if execute %}
    {%- set ui_paths = run_query(
        "select distinct json_path from " ~ ref('check_paths')
        ~ " where target = 'ui_item' and json_path is not null order by 1"
    ).columns[0].values() | list %}
{%- endif %}

with messages as (
    -- the rows twice, once per column, not one CTE read twice: DuckDB would keep that
    -- whole, every reply's UI values included (1M rows: peak memory 2.26 -> 1.63 GB)
    select source_file, record_no, assistant_message
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
),

ui_lists as (
    select source_file, record_no, ui_values
    from ({{ agent_rows('plan_agent', ref('int_exports__results')) }})
    where {{ list_size('ui_values') }} > 0
),

checks as (
    select source_file, file_fingerprint, record_no, item_id, check_no, check_kind, expected_value
    from {{ ref('int_plan_agent__checks') }}
    where {{ new_file_versions('source_file', "agent = 'plan_agent'") }}
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
    select source_file, record_no, check_no, bool_or(passed) as passed
    from (
        select
            checks.source_file,
            checks.record_no,
            checks.check_no,
            {{ check_passes('messages.assistant_message', 'checks.expected_value', 'paths.comparison') }}
                as passed
        from checks
        inner join paths on paths.check_kind = checks.check_kind and paths.target = 'message'
        inner join messages
            on messages.source_file = checks.source_file and messages.record_no = checks.record_no
    )
    group by all
),

ui_entries as (
    select
        source_file,
        record_no,
        entry_no,
        ui_value,
        {{ json_texts_at('ui_value', ui_paths) }} as ui_fields
    from (
        select
            source_file,
            record_no,
            {{ unnest_numbered('ui_values', 'entry_no', 'ui_value') }}
        from ui_lists
    ) as entries
),

ui_results_per_entry as (
    -- a failed UI check whose value sits elsewhere in the item hints at a JSON path to add:
    -- looked for in every entry here, so that the best entry needs no join back
    select
        source_file,
        record_no,
        check_no,
        entry_no,
        bool_or(passed) as passed,
        bool_or(value_in_entry) as value_in_entry
    from (
        select
            checks.source_file,
            checks.record_no,
            checks.check_no,
            ui_entries.entry_no,
            {{ check_passes(
                list_item('ui_entries.ui_fields', 'paths.ui_path_no'),
                'checks.expected_value',
                'paths.comparison') }} as passed,
            instr({{ json_as_text('ui_entries.ui_value') }}, '"' || checks.expected_value || '"') > 0
                as value_in_entry
        from checks
        inner join paths on paths.check_kind = checks.check_kind and paths.target = 'ui_item'
        inner join ui_entries
            on ui_entries.source_file = checks.source_file
            and ui_entries.record_no = checks.record_no
    )
    group by all
),

ui_results as (
    -- per row, the checks on the entry passing the most (the first on ties); read once, as
    -- Spark cannot reuse a CTE that calls Java (NFC)
    select
        source_file,
        record_no,
        check_no,
        passed,
        not passed and value_in_entry as value_elsewhere_in_item
    from (
        select
            *,
            dense_rank() over (
                partition by source_file, record_no order by passed_count desc, entry_no
            ) as entry_rank
        from (
            select
                *,
                count_if(passed) over (partition by source_file, record_no, entry_no)
                    as passed_count
            from ui_results_per_entry
        )
    )
    where entry_rank = 1
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
    coalesce(evaluated.value_elsewhere_in_item, false) as value_elsewhere_in_item
from checks
left join evaluated
    on evaluated.source_file = checks.source_file
    and evaluated.record_no = checks.record_no
    and evaluated.check_no = checks.check_no
