{% macro input_dir() -%}
    {#- Env var first so a CI job or a benchmark can point a build elsewhere without --vars. -#}
    {{ return(env_var('AGENT_SCORING_INPUT_DIR', var('input_dir'))) }}
{%- endmacro %}
