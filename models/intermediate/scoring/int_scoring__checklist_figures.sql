{{ config_incremental_by_file(['int_scoring__item_scores', 'int_scoring__query_verdicts']) }}
-- The figures of the operational checklists (ops_checklist) that each file gives alone, one
-- row per agent and file: stored per file as its items change, so the checklist (which
-- also compares a file with the runs before it) reads one small row per file.
{%- set limits = var('ops_checklist') %}

with items as {{ not_materialized() }} (
    select * from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

tracks as (
    select * from {{ ref('agent_tracks') }}
),

verdicts as (
    select * from {{ ref('int_scoring__query_verdicts') }}
    where track = 'all' and {{ new_file_versions() }}
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
        min(file_fingerprint) as file_fingerprint,
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
        inner join verdicts as v
            on v.agent = i.agent and v.source_file = i.source_file and v.query_id = i.query_id
        where v.verdict <> 'not_eligible' and i.intent_score is not null
        group by all
    ) as per_round
    group by agent, source_file
),

unpaired as (
    select agent, source_file, count(*) filter (where verdict = 'not_eligible') as n
    from verdicts
    group by agent, source_file
),

final as (
    select
        files.agent,
        files.source_file,
        counts.file_fingerprint,
        files.item_count,
        files.round_count,
        files.query_count,
        mapping.duplicate_keys,
        mapping.partial_queries,
        counts.low_count,
        low_scores.top as low_score_patterns,
        counts.mid_speed_count,
        mid_speeds.top as mid_speed_categories,
        counts.error_count,
        counts.empty_count,
        counts.parse_failures,
        counts.collect_errors,
        counts.llm_count,
        counts.heuristic_count,
        counts.gate_count,
        counts.unscored_count,
        counts.slow_count,
        counts.trackless_count,
        counts.track_mismatches,
        track_counts.distribution as track_distribution,
        pairs.per_round as pairs_per_round,
        coalesce(unpaired.n, 0) as unpaired_queries,
        -- the Track lines are the checklist's only for agents with tracks
        agents_with_tracks.agent is not null as agent_has_tracks
    from files
    inner join mapping on mapping.agent = files.agent and mapping.source_file = files.source_file
    inner join item_counts as counts
        on counts.agent = files.agent and counts.source_file = files.source_file
    left join low_scores
        on low_scores.agent = files.agent and low_scores.source_file = files.source_file
    left join mid_speeds
        on mid_speeds.agent = files.agent and mid_speeds.source_file = files.source_file
    left join track_counts
        on track_counts.agent = files.agent and track_counts.source_file = files.source_file
    left join pairs on pairs.agent = files.agent and pairs.source_file = files.source_file
    left join unpaired on unpaired.agent = files.agent and unpaired.source_file = files.source_file
    left join (select distinct agent from tracks) as agents_with_tracks
        on agents_with_tracks.agent = files.agent
)

select * from final
