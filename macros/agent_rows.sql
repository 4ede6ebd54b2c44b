{% macro agent_rows(agent) %}
    {#-
        The rows an agent scores: its files' rows of stg_exports__results (typed, none
        rejected), new or changed files only on an incremental build, each carrying the
        file's fingerprint with the agent's rules fingerprint (current_file_fingerprints()). A file without a column the registry requires
        stops this agent's build with one line naming the file and the column (other
        agents still build).
    -#}
    {%- set spec = agent_spec(agent) -%}
    {%- set results = ref('stg_exports__results') -%}
    {%- if execute and this is not none -%}
        {%- set files_relation = ref('stg_exports__files') -%}
        {%- set incomplete = run_query(
            "select source_path, missing_columns[1] as missing_column from " ~ files_relation
            ~ " where agent = " ~ sql_string(agent) ~ " and len(missing_columns) > 0"
            ~ " order by source_file"
        ) -%}
        {%- for f in incomplete -%}
            {{ exceptions.raise_compiler_error(
                f['source_path'] ~ ': column "' ~ f['missing_column']
                ~ '" is missing (required for ' ~ agent ~ '); add it to the export or '
                ~ 'rename the header') }}
        {%- endfor -%}
        {%- set readable = run_query(
            "select count(*) from " ~ files_relation
            ~ " where agent = " ~ sql_string(agent) ~ " and problem is null"
        ).columns[0].values()[0] -%}
        {%- if readable == 0 and model.name == 'int_' ~ agent ~ '__item_scores' -%}
            {{ log("note: no readable " ~ agent ~ " file (" ~ spec.get('files', []) | join(', ')
                   ~ ") in " ~ input_dir() ~ "; its rows in the marts will be empty", info=true) }}
        {%- endif -%}
    {%- endif %}
    {%- if this is not none %}
    select
        results.* replace (
            -- the file part of the fingerprint, with this agent's rules instead of the shared
            split_part(results.file_fingerprint, '|', 1) || '|' || agents.rules_fingerprint
                as file_fingerprint
        )
    from {{ results }} as results
    inner join {{ ref('agents') }} as agents on agents.agent = results.agent
    where results.agent = {{ sql_string(agent) }} and {{ changed_files_only('results.source_file') }}
    {%- else %}
    {#- a unit test: its given rows are the agent's rows #}
    select * from {{ results }} where agent = {{ sql_string(agent) }}
    {%- endif %}
{% endmacro %}
