{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The score_pairs two points apart or more, with what the rules saw on the item: the rows
-- of the report's "2점 이상 차이 나는 문항", numbered per file in the report's order.
-- Stored per file as its items change (a view computed every item's round list and failed
-- checks at each read: 8 s for a report at 1M rows).

{%- set rubric_names = var('speed_rubric_names') %}

with far_pairs as (
    select * from {{ ref('score_pairs') }}
    where abs(score_diff) >= 2 and {{ new_file_versions() }}
),

items as (
    select * from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

-- what the rows below show of the items and queries of the far pairs only (a few thousand
-- of a million items: aggregating every item's checks and rounds took most of this model)
far_items as (
    select distinct agent, source_file, record_no from far_pairs
),

far_queries as (
    select distinct agent, source_file, query_id
    from far_pairs
    where metric = 'consistency' and query_id is not null
),

failed_checks as (
    select
        checks.agent,
        checks.source_file,
        checks.record_no,
        {{ failed_checks_text('checks') }} as failed_checks
    from {{ ref('check_results') }} as checks
    inner join far_items
        on far_items.agent = checks.agent
        and far_items.source_file = checks.source_file
        and far_items.record_no = checks.record_no
    where not checks.passed and {{ new_file_versions('checks.source_file') }}
    group by checks.agent, checks.source_file, checks.record_no
),

-- per Query ID: each round's intent score and status (what 일관성 compares)
query_rounds as (
    select
        items.agent,
        items.source_file,
        items.query_id,
        {{ string_agg_ordered(
            "items.round_label || '=' || coalesce(cast(cast(round(items.intent_score) as integer) as string), '-')"
            ~ " || ' (' || items.status || ')'",
            "', '",
            'items.round_room nulls last, items.round_repeat nulls last, items.record_no') }}
            as round_scores
    from items
    inner join far_queries
        on far_queries.agent = items.agent
        and far_queries.source_file = items.source_file
        and far_queries.query_id = items.query_id
    group by items.agent, items.source_file, items.query_id
),

ranked as (
    select
        *,
        row_number() over (
            partition by agent, source_file order by metric_order, record_no
        ) as far_apart_rank,
        count(*) over (partition by agent, source_file) as far_apart_count
    from far_pairs
),

joined as (
    select
        ranked.agent,
        ranked.source_file,
        items.file_fingerprint,
        ranked.record_no,
        ranked.query_id,
        ranked.round_label,
        ranked.metric,
        ranked.metric_order,
        ranked.llm_score,
        ranked.rule_score,
        ranked.score_diff,
        ranked.far_apart_rank,
        ranked.far_apart_count,
        items.status,
        items.error_message,
        items.check_passed,
        items.check_count,
        items.response_time_sec,
        items.speed_rubric,
        failed_checks.failed_checks,
        case when ranked.metric = 'consistency' then query_rounds.round_scores end
            as round_scores
    from ranked
    left join items
        on ranked.agent = items.agent
        and ranked.source_file = items.source_file
        and ranked.record_no = items.record_no
    left join failed_checks
        on ranked.agent = failed_checks.agent
        and ranked.source_file = failed_checks.source_file
        and ranked.record_no = failed_checks.record_no
    left join query_rounds
        on ranked.agent = query_rounds.agent
        and ranked.source_file = query_rounds.source_file
        and ranked.query_id = query_rounds.query_id
),

-- what the rules saw, in a few words (the report's "규칙이 본 것")
described as (
    select
        *,
        case
            when metric = 'consistency' then '회차별 ' || round_scores
            when metric = 'speed'
                then 'responseTimeSec ' || {{ fixed_decimals('response_time_sec', 3) }} || '초: '
                    || case speed_rubric
                        {%- for rubric, name in rubric_names.items() %}
                        when {{ sql_string(rubric) }} then {{ sql_string(name) }}
                        {%- endfor %}
                        else speed_rubric
                    end || ' 루브릭 구간'
            when status in ('error', 'empty')
                then status || ': ' || coalesce(nullif(error_message, ''), '응답 없음')
            when metric = 'stability' then '상태 ' || status || ': 오류·빈 응답 아님'
            when check_count > 0
                then '체크 ' || check_passed || '/' || check_count || ' 통과'
                    || coalesce('; 실패: ' || nullif(failed_checks, ''), '')
            else '상태 ' || status
        end as rule_basis,
        -- speed and stability need no judgement: where the LLM's score differs, it is wrong
        metric in ('speed', 'stability') as is_llm_error
    from joined
),

final as (
    select
        agent,
        source_file,
        file_fingerprint,
        record_no,
        query_id,
        round_label,
        metric,
        metric_order,
        llm_score,
        rule_score,
        score_diff,
        far_apart_rank,
        far_apart_count,
        is_llm_error,
        rule_basis,
        status,
        error_message,
        cast(check_passed as bigint) as check_passed,
        check_count,
        response_time_sec,
        speed_rubric,
        failed_checks,
        round_scores
    from described
)

select * from final
