{% macro agent_rows(agent, results) %}
    {#-
        The rows an agent scores: its files' rows of `results` (int_exports__results: typed,
        none rejected), on an incremental build those of new fingerprints only
        (new_file_versions). A file refused for its shape (a required column missing) has no
        rows here: it is listed in rejected_files, and the other files score as usual.
    -#}
    {%- do agent_spec(agent) -%}
    select results.*
    from {{ results }} as results
    where results.agent = {{ sql_string(agent) }}
        and {{ new_file_versions('results.source_file', 'agent = ' ~ sql_string(agent)) }}
{% endmacro %}
