{% macro item_scores_from(relation, agent, columns={}, extra=[]) %}
    {#-
        The final select of every agent's int_<agent>__item_scores: the columns item_scores
        unions (the item_scores view takes them by name), with the item's total_score and
        the time it was scored. `relation` (a CTE) holds the agent's rows of agent_rows() plus
        what the agent decided: `status`, `error_message` and `heuristic_score` (its rule
        score, 0-5, null when it has none). Every other column has a default that `columns`
        may replace with an expression (e.g. {'partial_phrase': 'matched_phrase'}); `extra`
        columns of `relation` follow them (the agent's own evidence, for its own marts).
        Shared here, once (SCORING §2.3, §2.5, §3): LLM score precedence per metric (a usable
        score of the platform's per-metric columns, or the older LLM 점수), the gate,
        stability, the speed rubric the registry chose for the agent, and its band.
    -#}
    {%- set spec = agent_spec(agent) -%}
    {%- set c = {
        'track': "case when track_number is not null then 'Track ' || track_number end",
        'partial_phrase': 'null::string',
        'reply_excerpt': 'left(assistant_message, 200)',
        'used_response_fallback': 'false',
        'check_count': 'null::bigint',
        'check_passed': 'null::bigint',
        'pass_ratio': 'null::double',
    } -%}
    {%- do c.update(columns) %}
    select
        *,
        {{ total_score('intent_score', 'accuracy_score', 'stability_score', 'llm_consistency_score') }}
            as total_score,
        -- when this row was scored: a later build that leaves the file and the agent's rules
        -- alone keeps the row (and this time) as it is
        current_timestamp::timestamp as scored_at
    from (
        select
            {{ sql_string(agent) }} as agent,
            source_file,
            file_fingerprint,
            record_no,
            run_id,
            item_id,
            query_id,
            round_label,
            round_room,
            round_repeat,
            {{ c.track }} as track,
            category,
            query_text,
            executed_at,
            status,
            error_message,
            {{ c.partial_phrase }} as partial_phrase,
            {{ c.reply_excerpt }} as reply_excerpt,
            raw_json_is_valid,
            {{ c.used_response_fallback }} as used_response_fallback,
            {{ c.check_count }} as check_count,
            {{ c.check_passed }} as check_passed,
            {{ c.pass_ratio }} as pass_ratio,
            heuristic_score,
            llm_score,
            {{ item_score_columns(agent_llm_score_metrics(agent)) }},
            execution_count,
            worker_count,
            llm_status,
            llm_status_class,
            llm_intent_score,
            llm_accuracy_score,
            llm_consistency_score,
            llm_stability_score,
            llm_speed_score,
            response_time_problem,
            llm_model,
            prompt_version
            {%- for column in extra %},
            {{ column }}
            {%- endfor %}
        from (
            select
                *,
                {{ usable_llm('llm_score_raw') }} as llm_score,
                {{ usable_llm('llm_intent_score_raw') }} as llm_intent_score,
                {{ usable_llm('llm_accuracy_score_raw') }} as llm_accuracy_score,
                {{ usable_llm('llm_consistency_score_raw') }} as llm_consistency_score,
                {{ usable_llm('llm_stability_score_raw') }} as llm_stability_score,
                case speed_rubric
                    when 'multi' then {{ usable_llm('llm_speed_multi_score_raw') }}
                    else {{ usable_llm('llm_speed_single_score_raw') }}
                end as llm_speed_score
            from (
                select
                    *,
                    {{ speed_rubric_of(agent, spec.get('speed_rubric', 'single')) }} as speed_rubric
                from {{ relation }} as agent_row
            ) as with_rubric
        ) as decided
    ) as scored
{% endmacro %}


{% macro speed_rubric_of(agent, rule) -%}
    {#- The registry's speed_rubric rule as an expression over `agent_row`. -#}
    {%- set by_workers -%}
        case
            when greatest(coalesce(execution_count, 0), coalesce(worker_count, 0)) >= 2
                then 'multi'
            else 'single'
        end
    {%- endset -%}
    {%- if rule in ('single', 'multi') -%}
        '{{ rule }}'
    {%- elif rule == 'by_workers' -%}
        {{ by_workers }}
    {%- elif rule == 'by_track' -%}
        coalesce(
            (
                select tracks.speed_rubric from {{ ref('agent_tracks') }} as tracks
                where tracks.agent = {{ sql_string(agent) }}
                    and tracks.track_number = agent_row.track_number
            ),
            -- no known track: several workers or processes mean a multi-tool run
            {{ by_workers }}
        )
    {%- else -%}
        {{ exceptions.raise_compiler_error(
            'vars.agents.' ~ agent ~ '.speed_rubric is "' ~ rule
            ~ '"; use single, multi, by_workers or by_track') }}
    {%- endif -%}
{%- endmacro %}
