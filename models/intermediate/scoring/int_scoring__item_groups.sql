{{ config(materialized='view') }}
-- Each item once per reporting group it belongs to: 'all', its own track, and the track
-- group the agent_tracks seed gives its track (e.g. resume 'Track 1+2', the single rubric).
-- `consistency_input` is the score a round passes on for consistency: intent, or accuracy
-- for an agent registered with consistency_on: accuracy.

with items as (
    select
        *,
        case
            {%- for agent, spec in var('agents').items() if spec.get('consistency_on') == 'accuracy' %}
            when agent = {{ sql_string(agent) }} then accuracy_score
            {%- endfor %}
            when true then intent_score
        end as consistency_input
    from {{ ref('int_scoring__items') }}
),

groups as (
    select agent, 'Track ' || track_number as track, track_group
    from {{ ref('agent_tracks') }}
    where track_group is not null
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
