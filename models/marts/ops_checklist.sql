{{ config(materialized='view') }}
-- The operational checklists of the seeds (001 §6, 002 §7), each line checked from the data:
-- per agent and file, its figure and whether it passes (✓) or needs a look (⚠, with what
-- to check). Thresholds: var ops_checklist. The Track lines only for agents with tracks.
{%- set limits = var('ops_checklist') %}

with items as (
    select * from {{ ref('item_scores') }}
),

tracks as (
    select * from {{ ref('agent_tracks') }}
),

key_counts as (
    -- items per Query ID × round: one pass over the items for the mapping line and the
    -- files (no count(distinct): each row below is already one query × round)
    select agent, source_file, query_id, round_label, count(*) as n
    from items
    group by agent, source_file, query_id, round_label
),

query_rounds as (
    select
        agent,
        source_file,
        query_id,
        count(round_label) as round_count,
        count(case when n > 1 then 1 end) as repeated_keys
    from key_counts
    where query_id is not null
    group by agent, source_file, query_id
),

file_rounds as (
    select agent, source_file, count(round_label) as round_count
    from (select distinct agent, source_file, round_label from key_counts) as rounds
    group by agent, source_file
),

files as (
    select
        counted.agent,
        counted.source_file,
        counted.item_count,
        file_rounds.round_count,
        coalesce(queries.query_count, 0) as query_count
    from (
        select agent, source_file, cast(sum(n) as bigint) as item_count
        from key_counts
        group by agent, source_file
    ) as counted
    inner join file_rounds
        on file_rounds.agent = counted.agent and file_rounds.source_file = counted.source_file
    left join (
        select agent, source_file, count(*) as query_count
        from query_rounds
        group by agent, source_file
    ) as queries
        on queries.agent = counted.agent and queries.source_file = counted.source_file
),

runs as (
    select agent, source_file, run_order, previous_source_file from {{ ref('runs') }}
),

mapping as (
    select
        files.agent,
        files.source_file,
        files.query_count,
        files.round_count,
        coalesce(sum(q.repeated_keys), 0) as duplicate_keys,
        count(case when q.round_count < files.round_count then 1 end) as partial_queries
    from files
    left join query_rounds as q
        on q.agent = files.agent and q.source_file = files.source_file
    group by files.agent, files.source_file, files.query_count, files.round_count
),

patterns as (
    -- what an item looks like when it fails, for the pattern lines
    select
        agent,
        source_file,
        intent_score,
        speed_points,
        case
            when status = 'error'
                then {{ error_pattern('error_message', 60) }}
            when status = 'empty' then '(빈 응답)'
            else coalesce(category, '(카테고리 없음)')
        end as pattern,
        coalesce(category, '(카테고리 없음)') as category_name
    from items
),

low_scores as (
    select agent, source_file,
        {{ string_agg_ordered("pattern || ' ' || pattern_count || '건'", "', '", 'rank') }} as top
    from (
        select agent, source_file, pattern, count(*) as pattern_count,
            row_number() over (partition by agent, source_file
                               order by count(*) desc, pattern) as rank
        from patterns
        where intent_score <= 2
        group by agent, source_file, pattern
    ) as ranked
    where rank <= 3
    group by agent, source_file
),

mid_speeds as (
    select agent, source_file,
        {{ string_agg_ordered("category_name || ' ' || pattern_count || '건'", "', '", 'rank') }}
            as top
    from (
        select agent, source_file, category_name, count(*) as pattern_count,
            row_number() over (partition by agent, source_file
                               order by count(*) desc, category_name) as rank
        from patterns
        where speed_points between 2 and 3
        group by agent, source_file, category_name
    ) as ranked
    where rank <= 3
    group by agent, source_file
),

item_counts as (
    select
        agent,
        source_file,
        count(*) filter (where intent_score <= 2) as low_count,
        count(*) filter (where speed_points between 2 and 3) as mid_speed_count,
        count(*) filter (where status = 'error') as error_count,
        count(*) filter (where status = 'empty') as empty_count,
        count(*) filter (where not raw_json_is_valid) as parse_failures,
        count(*) filter (where status = 'error' and raw_json_is_valid) as collect_errors,
        count(*) filter (where score_source = 'llm') as llm_count,
        count(*) filter (where score_source = 'heuristic') as heuristic_count,
        count(*) filter (where score_source = 'gate') as gate_count,
        count(*) filter (where score_source = 'none') as unscored_count,
        count(*) filter (where track = 'Track {{ limits.slow_track }}'
            and response_time_sec >= {{ limits.slow_track_sec }}) as slow_count,
        count(*) filter (where track is null) as trackless_count,
        count(*) filter (where exists (
            select 1 from tracks as t
            where t.agent = items.agent and t.query_id_prefix is not null
                and {{ text_starts_with('items.query_id', 't.query_id_prefix') }}
                and items.track <> 'Track ' || t.track_number
        )) as track_mismatches
    from items
    group by agent, source_file
),

track_counts as (
    select agent, source_file,
        {{ string_agg_sorted("track || ' ' || n || '건'", "', '") }} as distribution
    from (
        select agent, source_file, coalesce(track, '미상') as track, count(*) as n
        from items
        group by all
    ) as per_track
    group by agent, source_file
),

pairs as (
    select agent, source_file,
        {{ string_agg_ordered("round_label || ': ' || n || '쌍'", "', '", 'room, rep, round_label') }}
            as per_round
    from (
        select i.agent, i.source_file, i.round_label, min(i.round_room) as room,
            min(i.round_repeat) as rep, count(*) as n
        from items as i
        inner join {{ ref('int_scoring__query_verdicts') }} as v
            on v.agent = i.agent and v.source_file = i.source_file and v.query_id = i.query_id
            and v.track = 'all'
        where v.verdict <> 'not_eligible' and i.intent_score is not null
        group by all
    ) as per_round
    group by agent, source_file
),

unpaired as (
    select agent, source_file, count(*) filter (where verdict = 'not_eligible') as n
    from {{ ref('int_scoring__query_verdicts') }}
    where track = 'all'
    group by agent, source_file
),

with_history as (
    select
        c.*,
        files.item_count,
        c.parse_failures / files.item_count as parse_rate,
        (
            select avg(earlier.parse_failures / earlier_files.item_count)
            from item_counts as earlier
            inner join files as earlier_files
                on earlier_files.agent = earlier.agent
                and earlier_files.source_file = earlier.source_file
            inner join runs as earlier_run
                on earlier_run.agent = earlier.agent
                and earlier_run.source_file = earlier.source_file
            where earlier.agent = c.agent and earlier_run.run_order < this_run.run_order
        ) as earlier_parse_rate,
        (
            select count(*)
            from runs as earlier_run
            where earlier_run.agent = c.agent and earlier_run.run_order < this_run.run_order
        ) as earlier_runs,
        previous.slow_count as previous_slow_count,
        this_run.previous_source_file
    from item_counts as c
    inner join files on files.agent = c.agent and files.source_file = c.source_file
    left join runs as this_run
        on this_run.agent = c.agent and this_run.source_file = c.source_file
    left join item_counts as previous
        on previous.agent = c.agent and previous.source_file = this_run.previous_source_file
),

has_tracks as (
    select distinct agent from tracks
),

lines as (
    select
        m.agent, m.source_file, 1 as line_no, 'seed 001 §6' as seed_ref,
        'Query ID-방/반복 매핑이 깨지지 않았는지' as check_text,
        'Query ID ' || m.query_count || '개 × 회차 ' || m.round_count || ', 중복 '
            || m.duplicate_keys || ', 일부 회차에만 있는 Query ID ' || m.partial_queries
            as figure,
        m.duplicate_keys = 0 and m.partial_queries = 0 as passed,
        '같은 Query ID·방/반복이 두 번 있거나 한 회차에만 있는 질의: 내보내기 매핑을 확인' as hint
    from mapping as m
    union all
    select
        h.agent, h.source_file, 2, 'seed 001 §6, 002 §7',
        'LLM 점수가 있으면 쓰고, 없으면 휴리스틱을 썼는지 (사유 기록)',
        'LLM ' || h.llm_count || ', 휴리스틱 ' || h.heuristic_count || ', error/empty 0점 '
            || h.gate_count || ', 채점 불가 ' || h.unscored_count,
        h.unscored_count = 0,
        '채점 불가 문항: LLM 점수도 규칙 점수도 없음 (기대결과에 체크가 없는 등)'
    from with_history as h
    union all
    select
        h.agent, h.source_file, 3, 'seed 001 §6',
        '0/1/2점 구간의 오탐이 과도한지 (패턴)',
        '0~2점 ' || h.low_count || '건 (' || round(100.0 * h.low_count / h.item_count, 1)
            || '%)' || coalesce(': ' || low_scores.top, ''),
        h.low_count <= {{ limits.low_score_share_warn }} * h.item_count,
        '0~2점이 ' || {{ limits.low_score_share_warn * 100 }} || '%를 넘음: 상위 패턴의 기대결과·체크를 확인'
    from with_history as h
    left join low_scores on low_scores.agent = h.agent and low_scores.source_file = h.source_file
    union all
    select
        h.agent, h.source_file, 4, 'seed 001 §6',
        '속도 분포(특히 2~3점) 상위 패턴',
        '속도 2~3점 ' || h.mid_speed_count || '건 (' || round(100.0 * h.mid_speed_count / h.item_count, 1)
            || '%)' || coalesce(': ' || mid_speeds.top, ''),
        h.mid_speed_count <= {{ limits.mid_speed_share_warn }} * h.item_count,
        '속도 2~3점이 ' || {{ limits.mid_speed_share_warn * 100 }} || '%를 넘음: 상위 카테고리의 응답 시간을 추적'
    from with_history as h
    left join mid_speeds on mid_speeds.agent = h.agent and mid_speeds.source_file = h.source_file
    union all
    select
        h.agent, h.source_file, 5, 'seed 001 §6',
        '안정성 실패가 1% 이상이면 수집/파싱 경로 점검',
        'error ' || h.error_count || ', empty ' || h.empty_count || ' / ' || h.item_count || ' ('
            || round(100.0 * (h.error_count + h.empty_count) / h.item_count, 1) || '%)',
        h.error_count + h.empty_count < {{ limits.stability_failure_rate_warn }} * h.item_count,
        '수집 경로(오류 응답 ' || h.collect_errors || '건)와 파싱 경로(Raw JSON 파싱 실패 '
            || h.parse_failures || '건), 빈 응답 ' || h.empty_count || '건을 점검'
    from with_history as h
    union all
    select
        h.agent, h.source_file, 6, 'seed 002 §7',
        'Track 1/2/3 분포가 의도대로 매칭되었는지',
        t.distribution || '; Query ID와 다른 Track ' || h.track_mismatches || '건',
        h.track_mismatches = 0 and h.trackless_count = 0,
        'Track이 Query ID 접두어(seeds/agent_tracks.csv)와 다르거나 비어 있음: Track 열을 확인'
    from with_history as h
    inner join has_tracks on has_tracks.agent = h.agent
    inner join track_counts as t on t.agent = h.agent and t.source_file = h.source_file
    union all
    select
        h.agent, h.source_file, 7, 'seed 002 §7',
        'Raw JSON 파싱 실패율이 이상치인지',
        round(100.0 * h.parse_rate, 1) || '% (' || h.parse_failures || '/' || h.item_count
            || ')' || case when h.earlier_runs > 0
                then ', 이전 실행 평균 ' || round(100.0 * h.earlier_parse_rate, 1) || '% ('
                    || h.earlier_runs || '회)'
                else ', 이전 실행 없음' end,
        h.parse_rate <= {{ limits.raw_json_failure_rate_warn }}
            or h.parse_rate <= coalesce(h.earlier_parse_rate, 0),
        'Raw JSON 파싱 실패가 ' || {{ limits.raw_json_failure_rate_warn * 100 }}
            || '%와 이전 실행 평균을 넘음: 수집된 Raw JSON을 확인'
    from with_history as h
    union all
    select
        h.agent, h.source_file, 8, 'seed 002 §7',
        '일관성 쿼리 쌍 개수를 회차별로',
        coalesce(p.per_round, '쌍 없음') || '; 짝 없는 Query ID ' || coalesce(u.n, 0),
        coalesce(u.n, 0) = 0,
        '채점된 회차가 하나뿐인 Query ID는 일관성에서 빠짐: 회차별 누락을 확인'
    from with_history as h
    left join pairs as p on p.agent = h.agent and p.source_file = h.source_file
    left join unpaired as u on u.agent = h.agent and u.source_file = h.source_file
    union all
    select
        h.agent, h.source_file, 9, 'seed 002 §7',
        'Track{{ limits.slow_track }}에서 {{ limits.slow_track_sec }}초 이상 구간이 누적되는지',
        h.slow_count || '건' || case when h.previous_source_file is not null
            then ' (이전 실행 ' || coalesce(h.previous_slow_count, 0) || '건)'
            else ' (이전 실행 없음)' end,
        h.slow_count = 0 or h.slow_count <= coalesce(h.previous_slow_count, -1),
        'Track{{ limits.slow_track }}의 느린 문항이 늘었거나 처음 나옴: 해당 질의의 실행 경로를 추적'
    from with_history as h
    inner join has_tracks on has_tracks.agent = h.agent
)

select
    agent,
    source_file,
    line_no,
    seed_ref,
    check_text,
    figure,
    passed,
    case when not passed then hint end as hint
from lines
