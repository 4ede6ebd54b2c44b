{{ config_incremental_by_file() }}
-- Every parsed check evaluated (SCORING §2.2). Message checks look at assistantMessage; UI
-- checks describe ONE UI item ("해당 항목"), so they are scored against each dataUIList entry
-- and the entry passing the most of them (first on ties) decides all of them.
{#- Each UI entry is parsed once for every configured path (one json_extract_string with a
    list of paths), not once per check: the paths are read from check_paths here. -#}
{%- set ui_paths = [] %}
{%- if execute %}
    {%- set ui_paths = run_query(
        "select distinct json_path from " ~ ref('check_paths')
        ~ " where target = 'ui_item' and json_path is not null order by 1"
    ).columns[0].values() | list %}
{%- endif %}
{%- set ui_paths_sql = sql_list(ui_paths) %}

with results as (
    select source_file, record_no, assistant_message, ui_values
    from ({{ agent_rows('plan_agent') }})
),

checks as (
    select source_file, file_fingerprint, record_no, item_id, check_no, check_kind, expected_value
    from {{ ref('int_plan_agent__checks') }}
    where {{ changed_files_only() }}
),

paths as (
    select
        check_kind,
        target,
        json_path,
        comparison,
        list_position({{ ui_paths_sql }}, json_path) as ui_path_no
    from {{ ref('check_paths') }}
),

message_results as (
    select
        checks.source_file,
        checks.record_no,
        checks.check_no,
        bool_or({{ check_passes('results.assistant_message', 'checks.expected_value', 'paths.comparison') }})
            as passed
    from checks
    inner join paths on paths.check_kind = checks.check_kind and paths.target = 'message'
    inner join results
        on results.source_file = checks.source_file and results.record_no = checks.record_no
    group by all
),

ui_entries as (
    select
        source_file,
        record_no,
        entry_no,
        ui_value,
        json_extract_string(ui_value, {{ ui_paths_sql }}) as ui_fields
    from (
        select
            source_file,
            record_no,
            generate_subscripts(ui_values, 1) as entry_no,
            unnest(ui_values) as ui_value
        from results
        where len(ui_values) > 0
    ) as entries
),

ui_results_per_entry as (
    select
        checks.source_file,
        checks.record_no,
        checks.check_no,
        ui_entries.entry_no,
        bool_or({{ check_passes(
            'ui_entries.ui_fields[paths.ui_path_no]',
            'checks.expected_value',
            'paths.comparison') }}) as passed
    from checks
    inner join paths on paths.check_kind = checks.check_kind and paths.target = 'ui_item'
    inner join ui_entries
        on ui_entries.source_file = checks.source_file and ui_entries.record_no = checks.record_no
    group by all
),

best_entries as (
    select
        source_file,
        record_no,
        first(entry_no order by passed_count desc, entry_no) as entry_no
    from (
        select source_file, record_no, entry_no, count_if(passed) as passed_count
        from ui_results_per_entry
        group by all
    )
    group by all
),

ui_results as (
    select
        per_entry.source_file,
        per_entry.record_no,
        per_entry.check_no,
        per_entry.passed,
        -- a failed UI check whose value sits elsewhere in the item hints at a JSON path to add
        not per_entry.passed
            and strpos(ui_entries.ui_value::varchar, '"' || checks.expected_value || '"') > 0
            as value_elsewhere_in_item
    from ui_results_per_entry as per_entry
    inner join best_entries
        on best_entries.source_file = per_entry.source_file
        and best_entries.record_no = per_entry.record_no
        and best_entries.entry_no = per_entry.entry_no
    inner join ui_entries
        on ui_entries.source_file = per_entry.source_file
        and ui_entries.record_no = per_entry.record_no
        and ui_entries.entry_no = per_entry.entry_no
    inner join checks
        on checks.source_file = per_entry.source_file
        and checks.record_no = per_entry.record_no
        and checks.check_no = per_entry.check_no
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
