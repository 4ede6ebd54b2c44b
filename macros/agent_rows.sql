{% macro agent_rows(agent) %}
    {#-
        The rows an agent scores: its files' rows of stg_exports__results (typed, none
        rejected), new or changed files only on an incremental build, each carrying the
        file's fingerprint with the agent's rules fingerprint (current_file_fingerprints()).
        A file without a column the registry requires stops this agent's build with one line
        naming the file and the column (other agents still build): the check runs with the
        query, not at compile time.
    -#}
    {%- do agent_spec(agent) -%}
    {%- set results = ref('stg_exports__results') -%}
    {%- if this is not none %}
    select
        -- the file part of the fingerprint, with this agent's rules instead of the shared
        {{ star_replace('results', 'file_fingerprint',
            "split_part(results.file_fingerprint, '|', 1) || '|' || agents.rules_fingerprint") }}
    from {{ results }} as results
    inner join {{ ref('agents') }} as agents on agents.agent = results.agent
    where results.agent = {{ sql_string(agent) }} and {{ changed_files_only('results.source_file') }}
        -- a file without a required column stops this agent's build, naming both
        and (
            select first({{ raise_error(
                "files.source_path || ': column \"' || " ~ list_item('files.missing_columns', 1)
                ~ " || '\" is missing (required for " ~ agent
                ~ "); add it to the export or rename the header'") }})
            from {{ ref('stg_exports__files') }} as files
            where files.agent = {{ sql_string(agent) }} and {{ list_size('files.missing_columns') }} > 0
        ) is null
    {%- else %}
    {#- a unit test: its given rows are the agent's rows #}
    select * from {{ results }} where agent = {{ sql_string(agent) }}
    {%- endif %}
{% endmacro %}
