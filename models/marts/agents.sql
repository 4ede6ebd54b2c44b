-- The agent registry (var `agents` in dbt_project.yml) as this build used it, one row per
-- agent, with the fingerprints of the rules each agent's files were scored with. Every
-- per-file model compares the fingerprint it stored with these: a rule change re-scores
-- only the files of the agents it touches (a shared rule: every file).
{#- read_rules_fingerprint: rules_digest(), every rule of the project (what reading a file
    depends on is the loader's read_key) -#}
{%- set scoring_models = ['stg_exports__results', 'item_scores', 'check_results',
    'int_scoring__round_figures', 'int_scoring__query_verdicts', 'int_scoring__run_files',
    'int_scoring__run_queries'] %}
{%- set scoring_seeds = ['llm_statuses'] %}

with registry as (
    {%- for name, spec in var('agents').items() %}
    select
        {{ sql_string(name) }} as agent,
        {{ sql_string(spec.get('display_name', name)) }} as display_name,
        {{ sql_list(agent_file_patterns(name)) }} as file_patterns,
        {{ sql_list(spec.get('required_columns', [])) }} as required_columns,
        {{ sql_string(spec.get('speed_rubric', 'single')) }} as speed_rubric,
        {{ sql_string(spec.get('consistency_on', 'intent')) }} as consistency_on,
        {{ 'true' if spec.get('check_results') else 'false' }} as has_check_results,
        {{ sql_list(agent_own_marts(name)) }} as own_marts,
        {{ json_literal(tojson(spec.get('settings', {}))) }} as settings,
        {{ sql_list(agent_llm_score_metrics(name)) }} as llm_score_metrics,
        {{ sql_string(local_md5(tojson(spec) ~ '|' ~ model_code_digest(agent_model_names(name)))) }}
            as definition_digest,
        concat_ws('|', {{ seed_digest(ref('agent_tracks'), "agent = " ~ sql_string(name)) }}
            {%- for seed in spec.get('rule_seeds', []) %}, {{ seed_digest(ref(seed)) }}{% endfor %}
        ) as seed_digest
    {{ "union all" if not loop.last }}
    {%- endfor %}
),

read_rules as (
    -- every macro, model, seed and var: any edit parses and scores every file again
    select {{ sql_string(rules_digest()) }} as read_rules_fingerprint
),

shared as (
    select
        read_rules.read_rules_fingerprint,
        md5(concat_ws(
            '|',
            read_rules.read_rules_fingerprint,
            {{ sql_string(tojson([var('speed_rubrics'), var('max_response_time_sec'),
                var('consistency_pass_score')])) }},
            {{ sql_string(model_code_digest(scoring_models)) }}
            {%- for seed in scoring_seeds %}, {{ seed_digest(ref(seed)) }}{% endfor %}
        )) as shared_rules_fingerprint
    from read_rules
)

select
    registry.agent,
    registry.display_name,
    registry.file_patterns,
    registry.required_columns,
    registry.speed_rubric,
    registry.consistency_on,
    registry.has_check_results,
    registry.own_marts,
    registry.settings,
    shared.read_rules_fingerprint,
    shared.shared_rules_fingerprint,
    md5(registry.definition_digest || '|' || registry.seed_digest) as agent_rules_fingerprint,
    md5(
        shared.shared_rules_fingerprint || '|' || registry.definition_digest || '|'
        || registry.seed_digest
    ) as rules_fingerprint,
    registry.llm_score_metrics
from registry
cross join shared
