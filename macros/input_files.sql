{% macro input_dir() -%}
    {#- The input folder: env AGENT_SCORING_INPUT_DIR wins over vars.input_dir. -#}
    {%- set folder = env_var('AGENT_SCORING_INPUT_DIR', var('input_dir')) | replace('\\', '/') -%}
    {{- return(folder.rstrip('/') or '/') -}}
{%- endmacro %}


{% macro claimed_patterns() -%}
    {#- Every file name pattern a reader claims: the agents' (vars.agents.<agent>.files, by
        default <agent>_*.csv) and the RAG files' (vars.rag_files). -#}
    {%- set patterns = [] -%}
    {%- for agent, spec in var('agents').items() -%}
        {%- do patterns.extend(spec.get('files', [agent ~ '_*.csv'])) -%}
    {%- endfor -%}
    {%- do patterns.extend(var('rag_files').values()) -%}
    {{- return(patterns) -}}
{%- endmacro %}


{% macro folder_globs(patterns) -%}
    {#- The patterns in both folders a build may read: the input folder and the bundled
        samples (chosen_folder() says which one a build reads), as a DuckDB list. -#}
    {%- set globs = [] -%}
    {%- for folder in [input_dir(), var('samples_dir').rstrip('/')] -%}
        {%- for pattern in patterns if sql_string(folder ~ '/' ~ pattern) not in globs -%}
            {%- do globs.append(sql_string(folder ~ '/' ~ pattern)) -%}
        {%- endfor -%}
    {%- endfor -%}
    [{{ globs | join(', ') }}]
{%- endmacro %}


{% macro chosen_folder(filename) -%}
    {#- True for a file of the folder this build reads: the input folder, or the bundled
        samples while the input folder holds no file any reader claims. -#}
    (case
        when (select count(*) from glob([
            {%- for pattern in claimed_patterns() -%}
                {{ sql_string(input_dir() ~ '/' ~ pattern) }}{{ ', ' if not loop.last }}
            {%- endfor -%}])) > 0
            then starts_with({{ filename }}, {{ sql_string(input_dir() ~ '/') }})
        else starts_with({{ filename }}, {{ sql_string(var('samples_dir').rstrip('/') ~ '/') }})
    end)
{%- endmacro %}


{% macro copy_to_landing(name, relation=none, columns='*') -%}
    {#- For the Spark target (docs/spark.md): this model's rows (or `relation`'s; `columns`
        of them) as Parquet in the landing folder, which Spark's build reads as raw.<name>.
        Nothing without a landing folder. -#}
    {%- set landing = env_var('AGENT_SCORING_LANDING_DIR', var('landing_dir')) -%}
    {%- if landing and target.type != 'spark' -%}
        {#- a COPY makes one folder level: the first makes the landing folder if need be -#}
        copy (select 1 as made where false) to {{ sql_string(landing) }}
            (format parquet, per_thread_output true, overwrite_or_ignore true);
        copy (select {{ columns }} from {{ relation or this }}) to {{ sql_string(landing ~ '/' ~ name) }}
            (format parquet, per_thread_output true, overwrite true)
    {%- else -%}
        select 1
    {%- endif -%}
{%- endmacro %}
