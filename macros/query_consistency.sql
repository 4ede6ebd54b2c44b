{% macro query_consistency(items, partition_by, score_column='intent_score') %}
    {#-
        SCORING §2.4: per partition and Query ID, a Query ID is eligible with two or more
        scored rounds; it is consistent when no two of its rounds disagree on pass
        (score >= var('consistency_pass_score')). The rounds are paired by a self-join, which
        for exactly two rounds is the seeds' both-pass / both-fail / mismatch rule.
        `score_column` is the score a round passes on (intent unless the agent says otherwise).
    -#}
    {%- set keys = partition_by | join(', ') -%}
    with rounds as (
        -- one row per Query ID and round it was asked in; `passed` is null for a round
        -- with no score (bool_and leaves nulls out)
        select
            {{ keys }},
            query_id,
            round_label,
            bool_and({{ score_column }} >= {{ var('consistency_pass_score') }}) as passed
        from {{ items }}
        where query_id is not null
        group by all
    ),

    scored_rounds as (
        select {{ keys }}, query_id, round_label, passed
        from rounds
        where passed is not null
    ),

    round_pairs as (
        select
            {%- for key in partition_by %}
            earlier.{{ key }},
            {%- endfor %}
            earlier.query_id,
            earlier.passed <> later.passed as disagree
        from scored_rounds as earlier
        inner join scored_rounds as later
            on {% for key in partition_by %}earlier.{{ key }} = later.{{ key }} and {% endfor -%}
            earlier.query_id = later.query_id
            and earlier.round_label < later.round_label
    ),

    per_query as (
        -- every Query ID, with the rounds it has a score in
        select
            {{ keys }},
            query_id,
            count(passed) as round_count,
            -- DuckDB's count_if of nothing but nulls is null
            coalesce(count_if(passed), 0) as pass_count
        from rounds
        group by all
    ),

    disagreements as (
        select {{ keys }}, query_id, bool_or(disagree) as any_disagree
        from round_pairs
        group by all
    )

    select
        {%- for key in partition_by %}
        per_query.{{ key }},
        {%- endfor %}
        per_query.query_id,
        per_query.round_count,
        per_query.pass_count,
        case
            when per_query.round_count < 2 then 'not_eligible'
            when disagreements.any_disagree then 'mismatch'
            when per_query.pass_count = per_query.round_count then 'all_pass'
            else 'all_fail'
        end as verdict
    from per_query
    left join disagreements
        on {% for key in partition_by %}disagreements.{{ key }} = per_query.{{ key }} and {% endfor -%}
        disagreements.query_id = per_query.query_id
{% endmacro %}
