{% macro item_groups(items) %}
    {#-
        The rows of `items` (item_scores rows) once per reporting group each belongs to:
        'all', its own track, and the track group seeds/agent_tracks.csv gives its track
        (e.g. resume 'Track 1+2'), as `track_group`. `consistency_input` is the score a round
        passes on for consistency: intent, or accuracy for an agent registered with
        consistency_on: accuracy.
    -#}
    with scored as (
        select
            *,
            case
                {%- for agent, spec in var('agents').items() if spec.get('consistency_on') == 'accuracy' %}
                when agent = {{ sql_string(agent) }} then accuracy_score
                {%- endfor %}
                when true then intent_score
            end as consistency_input
        from {{ items }}
    ),

    groups as (
        select agent, 'Track ' || track_number as track, track_group
        from {{ ref('agent_tracks') }}
        where track_group is not null
    )

    select scored.*, 'all' as track_group from scored
    union all
    select scored.*, scored.track as track_group from scored where scored.track is not null
    union all
    select scored.*, groups.track_group
    from scored
    inner join groups on groups.agent = scored.agent and groups.track = scored.track
{% endmacro %}
