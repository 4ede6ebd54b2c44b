{% macro input_dir() -%}
    {#- The folder the build reads: the input folder (env AGENT_SCORING_INPUT_DIR first, so a CI
        job or a benchmark can point a build elsewhere without --vars), or the bundled samples
        (vars.samples_dir) while the input folder holds no file any reader claims. The loader
        applies the same rule (agent_scoring.loader.land.choose_input_dir). -#}
    {%- set configured = env_var('AGENT_SCORING_INPUT_DIR', var('input_dir')) -%}
    {%- if execute and not holds_exports(configured) -%}
        {{ return(var('samples_dir')) }}
    {%- endif -%}
    {{ return(configured) }}
{%- endmacro %}

{% macro holds_exports(dir) -%}
    {%- set patterns = [] -%}
    {%- for spec in var('agents').values() -%}
        {%- do patterns.extend(spec['files']) -%}
    {%- endfor -%}
    {%- do patterns.extend(var('rag_files').values() | list) -%}
    {%- set globs = [] -%}
    {%- for pattern in patterns -%}
        {%- do globs.append("select file from glob(" ~ sql_string(dir.rstrip('/') ~ '/' ~ pattern) ~ ")") -%}
    {%- endfor -%}
    {%- set found = run_query("select count(*) from (" ~ globs | join(' union all ') ~ ")") -%}
    {{ return(found.columns[0].values()[0] > 0) }}
{%- endmacro %}
