{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The report's 0-5 distributions (의도 충족, and the per-item speed points): per agent,
-- file, metric and item group, a row per round in round order and the set ('세트') last,
-- with its items per 0-5 bucket. Item groups: 'all', and for an agent with tracks the
-- tracked items of the tracks scored on each speed rubric (the resume report's
-- "Track 1 + Track 2 (단일)").

with items as {{ not_materialized() }} (
    select * from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

track_rubrics as (
    -- a track's rubric: the first of its items' (a track is scored on one)
    select agent, source_file, track, min(speed_rubric) as speed_rubric
    from items
    where track is not null
    group by agent, source_file, track
),

grouped as (
    select items.*, 'all' as item_group
    from items
    union all
    select items.*, track_rubrics.speed_rubric as item_group
    from items
    inner join track_rubrics
        on track_rubrics.agent = items.agent
        and track_rubrics.source_file = items.source_file
        and track_rubrics.track = items.track
),

bucketed as (
    select
        agent, source_file, file_fingerprint, item_group, 'intent_score' as metric,
        round_label, round_room, round_repeat,
        cast(floor(intent_score) as integer) as bucket
    from grouped
    union all
    select
        agent, source_file, file_fingerprint, item_group, 'speed_points' as metric,
        round_label, round_room, round_repeat,
        cast(floor(speed_points) as integer) as bucket
    from grouped
),

per_round as (
    select
        agent,
        source_file,
        file_fingerprint,
        item_group,
        metric,
        round_label,
        min(round_room) as round_room,
        min(round_repeat) as round_repeat,
        {%- for points in range(6) %}
        count(case when bucket = {{ points }} then 1 end) as bucket_{{ points }},
        {%- endfor %}
        count(case when bucket is null then 1 end) as missing,
        count(*) as total
    from bucketed
    group by agent, source_file, file_fingerprint, item_group, metric, round_label
),

ordered as (
    select
        *,
        row_number() over (
            partition by agent, source_file, item_group, metric
            order by coalesce(round_room, 0), coalesce(round_repeat, 0), round_label
        ) as row_order,
        count(*) over (partition by agent, source_file, item_group, metric) as round_rows
    from per_round
),

the_set as (
    select
        agent,
        source_file,
        file_fingerprint,
        item_group,
        metric,
        '세트' as row_label,
        max(round_rows) + 1 as row_order,
        {%- for points in range(6) %}
        sum(bucket_{{ points }}) as bucket_{{ points }},
        {%- endfor %}
        sum(missing) as missing,
        sum(total) as total
    from ordered
    group by agent, source_file, file_fingerprint, item_group, metric
),

distribution as (
    select
        agent, source_file, file_fingerprint, item_group, metric, round_label as row_label,
        row_order,
        {%- for points in range(6) %} bucket_{{ points }},{% endfor %} missing, total
    from ordered
    union all
    select
        agent, source_file, file_fingerprint, item_group, metric, row_label, row_order,
        {%- for points in range(6) %} bucket_{{ points }},{% endfor %} missing, total
    from the_set
)

select
    agent,
    source_file,
    file_fingerprint,
    metric,
    item_group,
    row_order,
    row_label,
    {%- for points in range(6) %}
    cast(bucket_{{ points }} as bigint) as bucket_{{ points }},
    {%- endfor %}
    cast(missing as bigint) as missing,
    cast(total as bigint) as total,
    -- the buckets that have items, as the resume report lists them: `3점 2건, 5점 7건`
    concat_ws(', '
        {%- for points in range(6) %},
        case when bucket_{{ points }} > 0
            then '{{ points }}점 ' || cast(bucket_{{ points }} as {{ dbt.type_string() }}) || '건'
        end
        {%- endfor %}
    ) as bucket_text,
    -- the buckets as one list, 0 points first: a table row, a chart's series
    {%- set buckets = [] %}
    {%- for points in range(6) %}{% do buckets.append('cast(bucket_%d as bigint)' % points) %}{% endfor %}
    {{ list_of(buckets) }} as buckets
from distribution
