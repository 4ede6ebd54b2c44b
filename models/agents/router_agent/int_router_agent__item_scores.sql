{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- One row per query of the orchestrator's routing test (라우터 에이전트), in the item_scores
-- contract: 5 when the agent it routed to (응답값) is the one 기대 에이전트 names, else 0.
-- The export's own verdict (성공 여부) is kept beside it, and a disagreement is flagged.
-- error: the call failed (the export's error column); empty: no agent returned.

with results as (
    {{ agent_rows('router_agent', ref('int_exports__results')) }}
),

routed as (
    select
        *,
        trim(expected_result) as expected_agent,
        trim(response_text) as returned_agent,
        upper(trim({{ extra_column('export_verdict') }})) as export_verdict,
        {%- for column in ['input_tokens', 'output_tokens', 'thoughts_tokens', 'total_tokens',
                           'attempts'] %}
        try_cast({{ extra_column(column) }} as bigint) as {{ column }},
        {%- endfor %}
        error_text as error_message
    from results
),

scored as (
    select
        *,
        {{ status_label(error_when='error_message is not null',
                        empty_when='returned_agent is null') }} as status,
        coalesce(returned_agent = expected_agent, false) as routed_right
    from routed
),

judged as (
    select
        *,
        case when routed_right then 5 else 0 end as heuristic_score,
        export_verdict is not null
            and (export_verdict = 'PASS') <> routed_right as verdict_disagrees
    from scored
)

{{ item_scores_from('judged', 'router_agent', columns={
    'reply_excerpt': 'returned_agent',
}, extra=[
    'expected_agent', 'returned_agent', 'routed_right', 'export_verdict', 'verdict_disagrees',
    'input_tokens', 'output_tokens', 'thoughts_tokens', 'total_tokens', 'attempts',
]) }}
