{{ config(materialized='view') }}
-- Each item once per reporting group it belongs to: 'all', its own track, and any track
-- group of the track_groups seed (e.g. resume 'Track 1+2', scored on the single rubric).

with items as (
    select * from {{ ref('int_scoring__items') }}
),

groups as (
    select agent, track, track_group from {{ ref('track_groups') }}
),

memberships as (
    select items.*, 'all' as track_group from items
    union all
    select items.*, items.track as track_group from items where items.track is not null
    union all
    select items.*, groups.track_group
    from items
    inner join groups on groups.agent = items.agent and groups.track = items.track
)

select * from memberships
