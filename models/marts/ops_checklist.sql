{{ config(materialized='view') }}
-- The operational checklists of the seeds (001 §6, 002 §7), each line checked from the data:
-- per agent and file, its figure and whether it passes (✓) or needs a look (⚠, with what
-- to check). Thresholds: var ops_checklist. The Track lines only for agents with tracks.
{%- set limits = var('ops_checklist') %}

with files as (
    select * from {{ ref('int_scoring__checklist_figures') }}
),

runs as (
    select agent, source_file, run_order, previous_source_file from {{ ref('runs') }}
),

with_history as (
    select
        files.*,
        files.parse_failures / files.item_count as parse_rate,
        (
            select avg(earlier.parse_failures / earlier.item_count)
            from files as earlier
            inner join runs as earlier_run
                on earlier_run.agent = earlier.agent
                and earlier_run.source_file = earlier.source_file
            where earlier.agent = files.agent and earlier_run.run_order < this_run.run_order
        ) as earlier_parse_rate,
        (
            select count(*)
            from runs as earlier_run
            where earlier_run.agent = files.agent and earlier_run.run_order < this_run.run_order
        ) as earlier_runs,
        previous.slow_count as previous_slow_count,
        this_run.previous_source_file
    from files
    left join runs as this_run
        on this_run.agent = files.agent and this_run.source_file = files.source_file
    left join files as previous
        on previous.agent = files.agent and previous.source_file = this_run.previous_source_file
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
    from with_history as m
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
            || '%)' || coalesce(': ' || h.low_score_patterns, ''),
        h.low_count <= {{ limits.low_score_share_warn }} * h.item_count,
        '0~2점이 ' || {{ limits.low_score_share_warn * 100 }} || '%를 넘음: 상위 패턴의 기대결과·체크를 확인'
    from with_history as h
    union all
    select
        h.agent, h.source_file, 4, 'seed 001 §6',
        '속도 분포(특히 2~3점) 상위 패턴',
        '속도 2~3점 ' || h.mid_speed_count || '건 (' || round(100.0 * h.mid_speed_count / h.item_count, 1)
            || '%)' || coalesce(': ' || h.mid_speed_categories, ''),
        h.mid_speed_count <= {{ limits.mid_speed_share_warn }} * h.item_count,
        '속도 2~3점이 ' || {{ limits.mid_speed_share_warn * 100 }} || '%를 넘음: 상위 카테고리의 응답 시간을 추적'
    from with_history as h
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
        h.track_distribution || '; Query ID와 다른 Track ' || h.track_mismatches || '건',
        h.track_mismatches = 0 and h.trackless_count = 0,
        'Track이 Query ID 접두어(seeds/agent_tracks.csv)와 다르거나 비어 있음: Track 열을 확인'
    from with_history as h
    where h.agent_has_tracks
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
        coalesce(h.pairs_per_round, '쌍 없음') || '; 짝 없는 Query ID ' || h.unpaired_queries,
        h.unpaired_queries = 0,
        '채점된 회차가 하나뿐인 Query ID는 일관성에서 빠짐: 회차별 누락을 확인'
    from with_history as h
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
    where h.agent_has_tracks
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
