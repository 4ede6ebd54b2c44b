{% macro input_dir() -%}
    {#- Env var first so a CI job or a benchmark can point a build elsewhere without --vars. -#}
    {{ return(env_var('AGENT_SCORING_INPUT_DIR', var('input_dir'))) }}
{%- endmacro %}


{% macro input_file_globs() -%}
    {#-
        What stg_exports__files reads (a model with meta.reads_files): every agent's export
        patterns in the input directory, and the transcoded copies it made of them. A build
        whose files all have the same paths, sizes and modification times keeps it.
    -#}
    {%- set dir = input_dir().rstrip('/') -%}
    {%- set globs = [env_var('DBT_TARGET_PATH', 'target') ~ '/transcoded/*'] -%}
    {%- for name in var('agents') -%}
        {%- for pattern in agent_file_patterns(name) -%}
            {%- do globs.append(dir ~ '/' ~ pattern) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(globs) }}
{%- endmacro %}
