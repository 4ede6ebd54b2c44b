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
        5.0 * (count_if(verdict = 'all_pass') + count_if(verdict = 'all_fail'))
            / nullif(count_if(verdict <> 'not_eligible'), 0) as consistency_score
    from {{ verdicts }}
    group by agent, source_file, track
{% endmacro %}
