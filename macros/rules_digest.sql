{% macro rules_digest() -%}
    {#-
        md5 of everything a score can depend on: the body of every macro and the code of
        every model of this project, every seed's content (dbt's checksum of the file) and
        every var but where the files are and how staging reads them (direct_read_buffer_bytes
        and direct_read_groups change no row). Any edit to one of them gives a new
        digest, so the next plain `dbt build` scores every row again: a rule is never
        half-applied.
        Deliberately coarse: a per-model digest would have to follow adapter.dispatch and
        hook strings, which dbt does not record as dependencies, and one missed edge means a
        stale score.
    -#}
    {%- set parts = [] -%}
    {%- if execute -%}
        {%- for name in context[project_name] | sort -%}
            {%- do parts.append('macro ' ~ name ~ ':' ~ context[project_name][name].macro.macro_sql) -%}
        {%- endfor -%}
        {%- for node in graph.nodes.values() | sort(attribute='unique_id')
            if node.package_name == project_name -%}
            {%- if node.resource_type == 'model' -%}
                {%- do parts.append(node.unique_id ~ ':' ~ node.raw_code) -%}
            {%- elif node.resource_type == 'seed' -%}
                {%- do parts.append(node.unique_id ~ ':' ~ node.checksum.checksum) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- for name in rule_vars() -%}
            {%- do parts.append('var ' ~ name ~ ':' ~ tojson(var(name))) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(local_md5(parts | join('\n'))) }}
{%- endmacro %}


{% macro rule_vars() -%}
    {#- The vars a score can depend on: every var of dbt_project.yml but the file locations,
        the evaluator's settings, direct_read_buffer_bytes and direct_read_groups
        (tests/test_rule_edits.py holds this list to the file). -#}
    {{ return(['engines_without_constraints', 'pass_ratio_bands', 'speed_rubrics',
               'speed_rubric_names', 'consistency_pass_score', 'fail_total_below',
               'ops_checklist', 'run_pairs', 'run_pair_min_shared_share',
               'max_response_time_sec', 'agents', 'rag_files', 'csv_max_line_bytes',
               'csv_max_fields', 'csv_excerpt_chars', 'rejected_locations_shown',
               'single_round_queries_shown',
               'cell_notes_shown', 'site_replies_per_file']) }}
{%- endmacro %}
