-- The agent registry (var `agents` in dbt_project.yml) as this build used it, one row per
-- agent, and the digest of the rules every row was scored with (rules_digest()). Built from
-- configuration alone: it has no parent model (docs/builds.md, dbt-project-evaluator).

with registry as (
    {%- for name, spec in var('agents').items() %}
    {%- set rule = spec.get('speed_rubric', 'single') %}
    select
        {{ sql_string(name) }} as agent,
        {{ sql_string(spec.get('display_name', name)) }} as display_name,
        {{ sql_list(agent_file_patterns(name)) }} as file_patterns,
        {{ sql_list(spec.get('required_columns', [])) }} as required_columns,
        {{ sql_string(rule) }} as speed_rubric,
        {{ sql_string(spec.get('consistency_on', 'intent')) }} as consistency_on,
        {{ 'true' if spec.get('check_results') else 'false' }} as has_check_results,
        {{ sql_list(agent_own_marts(name)) }} as own_marts,
        {{ json_literal(tojson(spec.get('settings', {}))) }} as settings,
        {{ sql_list(agent_llm_score_metrics(name)) }} as llm_score_metrics,
        {{ sql_list([rule] if rule in ('single', 'multi') else ['single', 'multi']) }}
            as speed_rubrics
    {{ "union all" if not loop.last }}
    {%- endfor %}
)

select
    agent,
    display_name,
    file_patterns,
    required_columns,
    speed_rubric,
    consistency_on,
    has_check_results,
    own_marts,
    settings,
    {{ sql_string(rules_digest()) }} as rules_digest,
    llm_score_metrics,
    speed_rubrics
from registry
