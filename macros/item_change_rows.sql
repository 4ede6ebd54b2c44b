{% macro item_change_rows(pairs, items, checks) %}
    {#-
        How every item of a head run compares with the same item of its base run, one row per
        (pair, query, round). `pairs` is a relation of (agent, head_file, base_file, pair_key),
        `items` item_scores and `checks` check_results:
        items pair on Query ID, or on whitespace-normalised query text when pair_key is
        'query_text', and on the round's numbers (room, repeat). The score compared is the
        intent score after LLM precedence (what the report shows); it passes at
        var('consistency_pass_score'). change: regressed (passed in base, fails in head),
        improved (the reverse), score_down / score_up (same side of the pass line, moved by at
        least 1), unchanged, new (only in head), removed (only in base). Checks (agents with a
        checklist) are matched by kind and expected value: which ones flipped.
        Used by the item_changes mart and by the warehouse macro item_changes_between().
    -#}
    {%- set pass_score = var('consistency_pass_score') %}
    with pairs as (
        select agent, head_file, base_file, pair_key from {{ pairs }}
    ),

    sides as (
        select pairs.*, 'head' as side, pairs.head_file as source_file from pairs
        union all
        select pairs.*, 'base' as side, pairs.base_file as source_file from pairs
    ),

    side_rows as {{ not_materialized() }} (
        select
            sides.agent,
            sides.head_file,
            sides.base_file,
            sides.side,
            case sides.pair_key
                when 'query_text' then {{ query_key('items.query_text') }}
                else items.query_id
            end as item_key,
            items.source_file,
            items.record_no,
            items.query_id,
            items.query_text,
            items.round_label,
            items.round_room,
            items.round_repeat,
            items.status,
            items.intent_score,
            items.accuracy_score,
            items.stability_score,
            items.speed_points,
            items.total_score,
            items.response_time_sec,
            items.error_message
        from sides
        inner join {{ items }} as items
            on items.agent = sides.agent and items.source_file = sides.source_file
    ),

    first_rows as (
        -- the same query twice in one round: the first one is compared. An aggregate and a
        -- join back on keys that are never null (one side is one file, where record_no is
        -- unique), not a window sorting every item of both runs (1M rows: 1.8 -> 0.7 s)
        select agent, head_file, base_file, side, min(record_no) as record_no
        from side_rows
        group by agent, head_file, base_file, side, item_key, round_room, round_repeat
    ),

    side_items as (
        select side_rows.*
        from side_rows
        inner join first_rows
            on first_rows.agent = side_rows.agent
            and first_rows.head_file = side_rows.head_file
            and first_rows.base_file = side_rows.base_file
            and first_rows.side = side_rows.side
            and first_rows.record_no = side_rows.record_no
    ),

    side_checks as (
        select
            side_items.agent,
            side_items.head_file,
            side_items.base_file,
            side_items.side,
            side_items.item_key,
            side_items.round_room,
            side_items.round_repeat,
            checks.check_kind || '=' || checks.expected_value as check_label,
            bool_and(checks.passed) as passed
        from side_items
        inner join {{ checks }} as checks
            on checks.agent = side_items.agent
            and checks.source_file = side_items.source_file
            and checks.record_no = side_items.record_no
        group by all
    ),

    check_flips as (
        select
            head.agent,
            head.head_file,
            head.base_file,
            head.item_key,
            head.round_room,
            head.round_repeat,
            {{ list_in_order("head.check_label", "head.check_label",
                filter="base.passed and not head.passed") }} as checks_failing_now,
            {{ list_in_order("head.check_label", "head.check_label",
                filter="not base.passed and head.passed") }} as checks_passing_now
        from side_checks as head
        inner join side_checks as base
            on base.side = 'base' and head.side = 'head'
            and base.agent = head.agent and base.head_file = head.head_file
            and base.base_file = head.base_file and base.item_key = head.item_key
            and base.round_room = head.round_room and base.round_repeat = head.round_repeat
            and base.check_label = head.check_label
        group by all
    ),

    failed_checks as (
        select
            agent, head_file, base_file, side, item_key, round_room, round_repeat,
            {{ string_agg_sorted('check_label', "', '", filter='not passed') }}
                as failed_checks
        from side_checks
        group by all
    ),

    checked_items as (
        select side_items.*, failed_checks.failed_checks
        from side_items
        left join failed_checks using (agent, head_file, base_file, side, item_key,
                                       round_room, round_repeat)
    ),

    head_items as (
        select * from checked_items where side = 'head'
    ),

    base_items as (
        select * from checked_items where side = 'base'
    ),

    joined as (
        select
            coalesce(head.agent, base.agent) as agent,
            coalesce(head.head_file, base.head_file) as head_file,
            coalesce(head.base_file, base.base_file) as base_file,
            coalesce(head.item_key, base.item_key) as item_key,
            coalesce(head.query_id, base.query_id) as query_id,
            coalesce(head.query_text, base.query_text) as query_text,
            coalesce(head.round_label, base.round_label) as round_label,
            coalesce(head.round_room, base.round_room) as round_room,
            coalesce(head.round_repeat, base.round_repeat) as round_repeat,
            base.record_no as base_record_no,
            head.record_no as head_record_no,
            base.status as base_status,
            head.status as head_status,
            base.intent_score as base_score,
            head.intent_score as head_score,
            {%- for column in ['accuracy_score', 'stability_score', 'speed_points', 'total_score'] %}
            base.{{ column }} as base_{{ column }},
            head.{{ column }} as head_{{ column }},
            {%- endfor %}
            base.response_time_sec as base_response_time_sec,
            head.response_time_sec as head_response_time_sec,
            base.error_message as base_error_message,
            head.error_message as head_error_message,
            base.failed_checks as base_failed_checks,
            head.failed_checks as head_failed_checks,
            head.record_no is not null as in_head,
            base.record_no is not null as in_base
        from head_items as head
        full outer join base_items as base
            on base.agent = head.agent and base.head_file = head.head_file
            and base.base_file = head.base_file and base.item_key = head.item_key
            and base.round_room = head.round_room and base.round_repeat = head.round_repeat
    )

    select
        joined.agent,
        joined.head_file,
        joined.base_file,
        joined.query_id,
        joined.query_text,
        joined.round_label,
        joined.round_room,
        joined.round_repeat,
        joined.base_record_no,
        joined.head_record_no,
        joined.base_status,
        joined.head_status,
        joined.base_score,
        joined.head_score,
        joined.base_response_time_sec,
        joined.head_response_time_sec,
        case
            when not joined.in_base then 'new'
            when not joined.in_head then 'removed'
            when joined.base_score >= {{ pass_score }} and joined.head_score < {{ pass_score }}
                then 'regressed'
            when joined.base_score < {{ pass_score }} and joined.head_score >= {{ pass_score }}
                then 'improved'
            when joined.head_score <= joined.base_score - 1 then 'score_down'
            when joined.head_score >= joined.base_score + 1 then 'score_up'
            else 'unchanged'
        end as change,
        joined.base_error_message,
        joined.head_error_message,
        joined.base_failed_checks,
        joined.head_failed_checks,
        coalesce(check_flips.checks_failing_now, {{ sql_list([]) }}) as checks_failing_now,
        coalesce(check_flips.checks_passing_now, {{ sql_list([]) }}) as checks_passing_now,
        {%- for column in ['accuracy_score', 'stability_score', 'speed_points', 'total_score'] %}
        joined.base_{{ column }},
        joined.head_{{ column }}{{ ',' if not loop.last }}
        {%- endfor %}
    from joined
    left join check_flips
        on check_flips.agent = joined.agent and check_flips.head_file = joined.head_file
        and check_flips.base_file = joined.base_file and check_flips.item_key = joined.item_key
        and check_flips.round_room = joined.round_room
        and check_flips.round_repeat = joined.round_repeat
{% endmacro %}


{% macro create_item_changes_between(items, checks) %}
    {#-
        A table macro in the warehouse, so that `score-report compare --base A --head B`
        compares any two runs with exactly the SQL of the item_changes mart:
        select * from item_changes_between('<base file>', '<head file>').
        Items pair on Query ID when the two runs share at least
        var('run_pair_min_shared_share') of the head's, as the runs mart decides.
    -#}
    {{ return(adapter.dispatch('create_item_changes_between', 'agent_scoring')(items, checks)) }}
{% endmacro %}

{% macro duckdb__create_item_changes_between(items, checks) %}
    create or replace macro item_changes_between(base, head) as table
    {{ item_change_rows("(
        select
            items.agent,
            head as head_file,
            base as base_file,
            case
                when count(distinct items.query_id) filter (
                    where items.source_file = head and items.query_id in (
                        select query_id from " ~ items ~ " where source_file = base
                    )
                ) >= " ~ var('run_pair_min_shared_share') ~ "
                    * count(distinct items.query_id) filter (where items.source_file = head)
                    then 'query_id'
                else 'query_text'
            end as pair_key
        from " ~ items ~ " as items
        where items.source_file in (head, base)
        group by items.agent
    )", items, checks) }}
{% endmacro %}

{% macro spark__create_item_changes_between(items, checks) %}
    {#- not on Spark yet: compare any two runs on the DuckDB warehouse -#}
    select 1
{% endmacro %}


{% macro delete_stale_run_pairs(current) %}
    {#- Post-hook: drop the rows of pairs (head_file, base_file, pair_fingerprint) that are
        not in the query `current`. -#}
    {{ return(adapter.dispatch('delete_stale_run_pairs', 'agent_scoring')(current)) }}
{% endmacro %}

{% macro default__delete_stale_run_pairs(current) %}
    delete from {{ this }} as stored
    where not exists (
        select 1 from ({{ current }}) as pair_now
        where pair_now.head_file = stored.head_file
            and pair_now.base_file = stored.base_file
            and pair_now.pair_fingerprint = stored.pair_fingerprint
    )
{% endmacro %}

{% macro spark__delete_stale_run_pairs(current) %}
    {{ spark_drop_stale_partitions(['head_file', 'base_file'], 'pair_fingerprint', current) }}
{% endmacro %}


{% macro run_pairs_now(runs, files) %}
    {#- (agent, head_file, base_file, pair_key, pair_fingerprint) of every run with a previous
        run: `runs` the runs mart, `files` int_scoring__run_files. A pair is compared again
        when either file's fingerprint (its landing, every rule) changes. -#}
    select
        runs.agent,
        runs.source_file as head_file,
        runs.previous_source_file as base_file,
        runs.pair_key,
        head_file.file_fingerprint || '>' || base_file.file_fingerprint as pair_fingerprint
    from {{ runs }} as runs
    inner join {{ files }} as head_file on head_file.source_file = runs.source_file
    inner join {{ files }} as base_file on base_file.source_file = runs.previous_source_file
    where runs.previous_source_file is not null
{% endmacro %}
