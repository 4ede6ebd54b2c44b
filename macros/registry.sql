{#- Helpers that read the agent registry (var `agents`), and SQL literals. -#}

{% macro agent_spec(agent) -%}
    {#- One agent's registry entry; a name that is not registered stops the build. -#}
    {%- set agents = var('agents') -%}
    {%- if agent not in agents -%}
        {{ exceptions.raise_compiler_error(
            'agent "' ~ agent ~ '" is not in vars.agents of dbt_project.yml; registered: '
            ~ (agents.keys() | list | join(', '))) }}
    {%- endif -%}
    {{ return(agents[agent]) }}
{%- endmacro %}


{% macro agent_llm_score_metrics(agent) -%}
    {#- The metrics an export's single LLM 점수 stands for (the platform's per-metric columns
        name their own). -#}
    {{ return(agent_spec(agent).get('llm_score_metrics', ['intent', 'accuracy'])) }}
{%- endmacro %}


{% macro agent_file_patterns(agent) -%}
    {#- The file name patterns of a registered agent; `<agent>_*.csv` when it lists none. -#}
    {{ return(agent_spec(agent).get('files', [agent ~ '_*.csv'])) }}
{%- endmacro %}


{% macro model_agent(node=none) -%}
    {#- The agent a model belongs to (its folder models/agents/<agent>/), else none. -#}
    {%- set fqn = (node or model).fqn -%}
    {{ return(fqn[2] if fqn | length > 3 and fqn[1] == 'agents' else none) }}
{%- endmacro %}


{% macro agent_model_names(agent) -%}
    {#- Names of the models in models/agents/<agent>/ (execution time; [] while parsing). -#}
    {%- set names = [] -%}
    {%- if execute -%}
        {%- for node in graph.nodes.values()
            if node.resource_type == 'model' and model_agent(node) == agent -%}
            {%- do names.append(node.name) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(names | sort) }}
{%- endmacro %}


{% macro agent_own_marts(agent) -%}
    {#- An agent's own marts: its models named <agent>__<what>. -#}
    {%- set marts = [] -%}
    {%- for name in agent_model_names(agent) if name.startswith(agent ~ '__') -%}
        {%- do marts.append(name) -%}
    {%- endfor -%}
    {{ return(marts) }}
{%- endmacro %}


{% macro sql_string(value) -%}
    {#- A text literal. -#}
    {{ return(adapter.dispatch('sql_string', 'agent_scoring')(value)) }}
{%- endmacro %}

{% macro default__sql_string(value) -%}
    '{{ value | string | replace("'", "''") }}'
{%- endmacro %}

{% macro spark__sql_string(value) -%}
    {#- Spark reads '' as two literals and (with escapedStringLiterals) backslashes as they are -#}
    {%- set text = value | string -%}
    {%- if "'" not in text -%}
        '{{ text }}'
    {%- elif '"' not in text -%}
        "{{ text }}"
    {%- else -%}
        concat('{{ text.split("'") | join("', \"'\", '") }}')
    {%- endif -%}
{%- endmacro %}


{% macro sql_list(values) -%}
    {#- A list of text literals. -#}
    {{ return(adapter.dispatch('sql_list', 'agent_scoring')(values)) }}
{%- endmacro %}

{% macro duckdb__sql_list(values) -%}
    [{% for v in values %}{{ sql_string(v) }}{{ ", " if not loop.last }}{% endfor %}]::varchar[]
{%- endmacro %}

{% macro spark__sql_list(values) -%}
    cast(array({% for v in values %}{{ sql_string(v) }}{{ ", " if not loop.last }}{% endfor %}) as array<string>)
{%- endmacro %}


{% macro json_literal(text) -%}
    {#- A JSON value from its text (DuckDB: JSON; Spark: VARIANT). -#}
    {{ return(adapter.dispatch('json_literal', 'agent_scoring')(text)) }}
{%- endmacro %}

{% macro duckdb__json_literal(text) -%}
    {{ sql_string(text) }}::json
{%- endmacro %}

{% macro spark__json_literal(text) -%}
    parse_json({{ sql_string(text) }})
{%- endmacro %}
