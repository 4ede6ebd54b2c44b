{% macro agent_rows(agent, results, files=none) %}
    {#-
        The rows an agent scores: its files' rows of `results` (int_exports__results: typed,
        none rejected), on an incremental build those of new fingerprints only
        (new_file_versions). Given `files` (stg_exports__files: the agent's first model
        passes it), a file without a column the registry requires stops this agent's build
        with one line naming the file and the column (other agents still build): the check
        runs with the query, not at compile time.
    -#}
    {%- do agent_spec(agent) -%}
    select results.*
    from {{ results }} as results
    where results.agent = {{ sql_string(agent) }}
        and {{ new_file_versions('results.source_file', 'agent = ' ~ sql_string(agent)) }}
    {%- if files is not none %}
        -- a file without a required column stops this agent's build, naming both
        and (
            select first({{ raise_error(
                "files.source_path || ': column \"' || " ~ list_item('files.missing_columns', 1)
                ~ " || '\" is missing (required for " ~ agent
                ~ "); add it to the export or rename the header'") }})
            from {{ files }} as files
            where files.agent = {{ sql_string(agent) }} and {{ list_size('files.missing_columns') }} > 0
        ) is null
    {%- endif %}
{% endmacro %}
