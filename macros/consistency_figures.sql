{% macro consistency_figures(verdicts) %}
    {#- Per agent, file and track: the verdict counts of query_consistency rows and the
        consistency score, 5 × the share of eligible Query IDs whose rounds agree
        (SCORING §2.4); null with no eligible Query ID. -#}
    select
        agent,
        source_file,
        track,
        count_if(verdict <> 'not_eligible') as eligible_queries,
        count_if(verdict = 'all_pass') as all_pass,
        count_if(verdict = 'all_fail') as all_fail,
        count_if(verdict = 'mismatch') as mismatch,
        count_if(verdict = 'not_eligible') as not_eligible,
        cast(5 as double) * (count_if(verdict = 'all_pass') + count_if(verdict = 'all_fail'))
            / nullif(count_if(verdict <> 'not_eligible'), 0) as consistency_score
    from {{ verdicts }}
    group by agent, source_file, track
{% endmacro %}


{% macro repeat_figures(verdicts) %}
    {#- Per agent, file and track: how the queries fare over repeated rounds, from
        query_consistency rows. k is the most rounds any query of the group has a score in
        (the run's repeats); pass@k (passed in at least one of its k rounds) and pass^k
        (passed in all k) are shares of the queries scored in k rounds. A query scored in
        fewer rounds (a round without a score is left out) is not counted in either share, as
        neither can be told for it at k: it is counted apart. Flaky: some rounds passed, some
        failed, at any number of rounds. -#}
    select
        agent,
        source_file,
        track,
        any_value(pass_k) as pass_k,
        count_if(round_count = pass_k) as pass_k_query_count,
        avg(passed_any_round::integer) filter (where round_count = pass_k)
            as pass_any_round_rate,
        avg(passed_all_rounds::integer) filter (where round_count = pass_k)
            as pass_all_rounds_rate,
        count_if(is_flaky) as flaky_query_count,
        count_if(round_count < pass_k) as fewer_rounds_query_count
    from (
        select
            *,
            max(round_count) over (partition by agent, source_file, track) as pass_k
        from {{ verdicts }}
        where round_count > 0
    ) as scored_queries
    group by agent, source_file, track
{% endmacro %}
