{% macro query_consistency(items, partition_by, score_column='intent_score') %}
    {#-
        SCORING §2.4: per partition and Query ID, a Query ID is eligible with two or more
        scored rounds; it is consistent when no two of its rounds disagree on pass
        (score >= var('consistency_pass_score')). The rounds are paired by a self-join, which
        for exactly two rounds is the seeds' both-pass / both-fail / mismatch rule.
        `score_column` is the score a round passes on (intent unless the agent says otherwise).
    -#}
    {%- set keys = partition_by | join(', ') -%}
    with queries as (
        select distinct {{ keys }}, query_id
        from {{ items }}
        where query_id is not null
    ),

    scored_rounds as (
        select
            {{ keys }},
            query_id,
            round_label,
            bool_and({{ score_column }} >= {{ var('consistency_pass_score') }}) as passed
        from {{ items }}
        where query_id is not null and {{ score_column }} is not null
        group by all
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
        select
            {{ keys }},
            query_id,
            count(*) as round_count,
            count_if(passed) as pass_count
        from scored_rounds
        group by all
    ),

    disagreements as (
        select {{ keys }}, query_id, bool_or(disagree) as any_disagree
        from round_pairs
        group by all
    )

    select
        {%- for key in partition_by %}
        queries.{{ key }},
        {%- endfor %}
        queries.query_id,
        coalesce(per_query.round_count, 0) as round_count,
        coalesce(per_query.pass_count, 0) as pass_count,
        case
            when coalesce(per_query.round_count, 0) < 2 then 'not_eligible'
            when disagreements.any_disagree then 'mismatch'
            when per_query.pass_count = per_query.round_count then 'all_pass'
            else 'all_fail'
        end as verdict
    from queries
    left join per_query
        on {% for key in partition_by %}per_query.{{ key }} = queries.{{ key }} and {% endfor -%}
        per_query.query_id = queries.query_id
    left join disagreements
        on {% for key in partition_by %}disagreements.{{ key }} = queries.{{ key }} and {% endfor -%}
        disagreements.query_id = queries.query_id
{% endmacro %}
