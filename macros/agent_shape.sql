{#- What an agent declares of its export's shape (vars.agents.<agent>; docs/adding-an-agent.md),
    and the per-agent expressions shared staging renders from it. An agent that declares
    nothing has the validation run's shape: Item ID, Query ID and 방/반복 columns, response
    time from Raw JSON responseTimeSec. -#}

{% macro agent_shape(agent) -%}
    {%- set spec = agent_spec(agent) -%}
    {%- set time = spec.get('response_time', {}) -%}
    {{ return({
        'rounds': spec.get('rounds', 'column'),
        'time_column': time.get('column'),
        'time_unit': time.get('unit', 's'),
    }) }}
{%- endmacro %}


{% macro check_agent_shapes() -%}
    {#- A declaration that cannot work stops the build at parse time, in one line naming the
        key (the loader trusts what passes). -#}
    {%- set own_name = modules.re.compile('^[a-z][a-z0-9_]*$') -%}
    {%- for agent, spec in var('agents').items() -%}
        {%- set where = 'vars.agents.' ~ agent -%}
        {%- set allowed = ['display_name', 'files', 'required_columns', 'speed_rubric',
                           'consistency_on', 'llm_score_metrics', 'check_results', 'settings',
                           'headers', 'sheet', 'settings_sheet', 'rounds', 'response_time'] -%}
        {%- for key in spec if key not in allowed -%}
            {{ exceptions.raise_compiler_error(where ~ '.' ~ key ~ ': not a registry key; known: '
                ~ allowed | join(', ')) }}
        {%- endfor -%}
        {%- for header, columns in spec.get('headers', {}).items() -%}
            {%- for column in ([columns] if columns is string else columns) -%}
                {%- if column is not string or not own_name.match(column) -%}
                    {{ exceptions.raise_compiler_error(where ~ '.headers.' ~ header ~ ': "'
                        ~ column ~ '" is no column name (lowercase letters, digits, _)') }}
                {%- endif -%}
            {%- endfor -%}
        {%- endfor -%}
        {%- if spec.get('rounds', 'column') not in ('column', 'per_file') -%}
            {{ exceptions.raise_compiler_error(where ~ '.rounds: "' ~ spec.rounds
                ~ '"; use column (방/반복) or per_file (one round per file)') }}
        {%- endif -%}
        {%- set time = spec.get('response_time', {}) -%}
        {%- if time is not mapping -%}
            {{ exceptions.raise_compiler_error(where ~ '.response_time: give {column: <name>, unit: s|ms}'
                ~ ' or leave it out (Raw JSON responseTimeSec)') }}
        {%- endif -%}
        {%- for key in time if key not in ('column', 'unit') -%}
            {{ exceptions.raise_compiler_error(where ~ '.response_time.' ~ key
                ~ ': not a key; give column (a column the agent reads) and unit (s or ms)') }}
        {%- endfor -%}
        {%- if time.get('unit', 's') not in ('s', 'ms') -%}
            {{ exceptions.raise_compiler_error(where ~ '.response_time.unit: "' ~ time.unit
                ~ '"; use s or ms') }}
        {%- endif -%}
        {%- if time.get('unit') and not time.get('column') -%}
            {{ exceptions.raise_compiler_error(where ~ '.response_time.column: missing; the unit'
                ~ ' is for a column (Raw JSON responseTimeSec is in seconds)') }}
        {%- endif -%}
        {%- if time.get('column') and not own_name.match(time.column) -%}
            {{ exceptions.raise_compiler_error(where ~ '.response_time.column: "' ~ time.column
                ~ '" is no column name (lowercase letters, digits, _): name the column in headers') }}
        {%- endif -%}
        {%- if spec.get('settings_sheet') and not spec.get('sheet') -%}
            {{ exceptions.raise_compiler_error(where ~ '.settings_sheet: needs sheet (the sheet of'
                ~ ' the rows) as well') }}
        {%- endif -%}
    {%- endfor -%}
{%- endmacro %}


{% macro by_agent(expressions, default) -%}
    {#- `default`, or per agent its own expression: {agent: expression}. -#}
    {%- if expressions -%}
        case agent
            {%- for agent, expression in expressions.items() %}
            when {{ sql_string(agent) }} then {{ expression }}
            {%- endfor %}
            else {{ default }}
        end
    {%- else -%}
        {{ default }}
    {%- endif -%}
{%- endmacro %}


{% macro agent_round_label(column) -%}
    {#- 방/반복, or 1/1 for every row of an agent whose export is one round per file. -#}
    {%- set own = {} -%}
    {%- for agent in var('agents') if agent_shape(agent).rounds == 'per_file' -%}
        {%- do own.update({agent: "'1/1'"}) -%}
    {%- endfor -%}
    {{ by_agent(own, column) }}
{%- endmacro %}


{% macro agent_response_time_json(default, text_columns) -%}
    {#- Raw JSON responseTimeSec, or the column an agent declares, as a JSON value. -#}
    {%- set own = {} -%}
    {%- for agent in var('agents') if agent_shape(agent).time_column -%}
        {%- set column = agent_shape(agent).time_column -%}
        {%- set text = column if column in text_columns else extra_column(column) -%}
        {%- do own.update({agent: text_as_json(text)}) -%}
    {%- endfor -%}
    {{ by_agent(own, default) }}
{%- endmacro %}


{% macro agent_seconds_factor() -%}
    {#- What a declared column's unit takes to seconds. -#}
    {%- set own = {} -%}
    {%- for agent in var('agents') if agent_shape(agent).time_unit == 'ms' -%}
        {%- do own.update({agent: '0.001'}) -%}
    {%- endfor -%}
    {{ by_agent(own, '1') }}
{%- endmacro %}


{% macro agent_header_of(column, header) -%}
    {#- The header an agent's export names `column` by (its own map, else `header`), as text. -#}
    {%- set own = {} -%}
    {%- for agent, spec in var('agents').items() -%}
        {%- for name, columns in spec.get('headers', {}).items()
            if column in ([columns] if columns is string else columns) and agent not in own -%}
            {%- do own.update({agent: sql_string(name)}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ by_agent(own, sql_string(header)) }}
{%- endmacro %}
