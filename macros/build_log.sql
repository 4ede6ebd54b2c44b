{#- The warehouse records each dbt invocation that writes to it (raw.builds), so that
    `score-report` can refuse a warehouse whose last build did not finish: a build killed or
    failed half-way leaves some marts new and others old. -#}

{% macro build_started() %}
    {{ return(adapter.dispatch('build_started', 'agent_scoring')()) }}
{% endmacro %}

{% macro duckdb__build_started() %}
    {%- if flags.WHICH in ('build', 'run', 'seed') -%}
    create schema if not exists raw;
    create table if not exists raw.builds (
        build_no integer primary key,
        invocation_id varchar not null,
        command varchar not null,
        whole_project boolean not null,
        started_at timestamp not null,
        ended_at timestamp,
        failures integer,
        first_failure varchar,
        complete boolean
    );
    insert into raw.builds (build_no, invocation_id, command, whole_project, started_at)
    select coalesce(max(build_no), 0) + 1, '{{ invocation_id }}', '{{ flags.WHICH }}',
           {{ build_is_whole() }}, current_localtimestamp()
    from raw.builds;
    {%- endif -%}
{% endmacro %}

{% macro build_is_whole() -%}
    {#- Whether this invocation runs every model: a build that leaves out only tests
        (`--exclude resource_type:test`) makes the warehouse whole, one that leaves out a
        model (`--select`, `--exclude tag:rag`) does not, nor does `dbt seed`. (The graph
        is empty while dbt parses the hook.) -#}
    {%- if not execute %}{{ return(false) }}{% endif -%}
    {%- set models = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model')
        | map(attribute='unique_id') -%}
    {{- models | reject('in', selected_resources) | list | length == 0 -}}
{%- endmacro %}

{#- Complete: nothing failed, and either this run built the whole project or the warehouse
    was complete before it (a `--select` run does not mend a broken build). -#}
{% macro build_ended(results) %}
    {{ return(adapter.dispatch('build_ended', 'agent_scoring')(results)) }}
{% endmacro %}

{% macro first_failure(results) -%}
    {#- (failures, the first one's "model: message" or none) of a run's results -#}
    {%- set failed = [] -%}
    {%- for result in results if result.status in ('error', 'fail', 'runtime error') -%}
        {%- do failed.append(result) -%}
    {%- endfor -%}
    {%- set first = none -%}
    {%- if failed -%}
        {#- dbt's message starts "Runtime Error in model x (path)": keep the line after it -#}
        {%- set lines = [] -%}
        {%- for line in ((failed[0].message or '') | string).split('\n') if line.strip() -%}
            {%- do lines.append(line.strip()) -%}
        {%- endfor -%}
        {%- set detail = lines[1] if lines | length > 1 and ' Error in ' in lines[0] else (lines[0] if lines else 'failed') -%}
        {%- set first = failed[0].node.name ~ ': ' ~ detail -%}
    {%- endif -%}
    {%- set damage = [] -%}
    {%- for result in failed if 'Corrupt database file' in ((result.message or '') | string) -%}
        {%- do damage.append(result) -%}
    {%- endfor -%}
    {%- if damage -%}
        {{- log(target.path ~ ' is damaged (a block does not match its checksum): delete it and run `dbt build`, which rebuilds everything from the exports in the input folder', info=True) -}}
    {%- endif -%}
    {{ return((failed | length, first)) }}
{%- endmacro %}

{% macro duckdb__build_ended(results) %}
    {%- if flags.WHICH in ('build', 'run', 'seed') -%}
    {%- set failures, first = first_failure(results) %}
    update raw.builds as this_build
    set ended_at = current_localtimestamp(),
        failures = {{ failures }},
        first_failure = {{ "'" ~ first[:500].replace("'", "''") ~ "'" if first else 'null' }},
        -- an earlier build that never ended (ended_at null) was not complete
        complete = {{ failures }} = 0 and (whole_project or coalesce((
            select coalesce(earlier.complete, false)
            from raw.builds as earlier
            where earlier.build_no < this_build.build_no
            order by earlier.build_no desc
            limit 1
        ), true))
    where invocation_id = '{{ invocation_id }}'
    {%- endif -%}
{% endmacro %}


{#- Spark: parquet tables take no update, so a build appends its start and its end, and
    raw.builds (a view) pairs them. The start also declares the loader's Parquet copy as the
    sources (docs/spark.md). Spark runs one statement per call: the hooks run
    theirs here and render nothing. -#}
{% macro spark__build_started() %}
    {%- if execute and flags.WHICH in ('build', 'run', 'seed') -%}
    {%- do run_query("create schema if not exists raw") -%}
    {%- do run_query("create table if not exists raw.build_starts (build_no int,
        invocation_id string, command string, whole_project boolean, started_at timestamp)
        using parquet") -%}
    {%- do run_query("create table if not exists raw.build_ends (invocation_id string,
        ended_at timestamp, failures int, first_failure string, complete boolean)
        using parquet") -%}
    {%- do run_query("create or replace view raw.builds as
        select starts.*, ends.ended_at, ends.failures, ends.first_failure, ends.complete
        from raw.build_starts as starts
        left join raw.build_ends as ends on ends.invocation_id = starts.invocation_id") -%}
    {%- do run_query("insert into raw.build_starts
        select coalesce(max(build_no), 0) + 1, '" ~ invocation_id ~ "', '" ~ flags.WHICH
        ~ "', " ~ build_is_whole() ~ ", localtimestamp() from raw.build_starts") -%}
    {%- do spark_landing_sources() -%}
    {%- endif -%}
{% endmacro %}

{% macro spark__build_ended(results) %}
    {%- if execute and flags.WHICH in ('build', 'run', 'seed') -%}
    {%- set failures, first = first_failure(results) -%}
    {%- do run_query("insert into raw.build_ends
        select this_build.invocation_id, localtimestamp(), " ~ failures ~ ", "
        ~ (sql_string(first[:500]) if first else 'null') ~ ", "
        ~ failures ~ " = 0 and (this_build.whole_project or coalesce((
            select max_by(coalesce(earlier.complete, false), earlier.build_no)
            from raw.builds as earlier
            where earlier.build_no < this_build.build_no
        ), true))
        from raw.build_starts as this_build
        where this_build.invocation_id = '" ~ invocation_id ~ "'") -%}
    {%- endif -%}
{% endmacro %}

{% macro spark_landing_sources() %}
    {%- set landing = env_var('AGENT_SCORING_LANDING_DIR', var('landing_dir')) -%}
    {%- if not landing -%}
        {{ exceptions.raise_compiler_error(
            "the spark target reads the loader's Parquet copy: set AGENT_SCORING_LANDING_DIR"
            ~ ' (docs/spark.md)') }}
    {%- endif -%}
    {%- for table in ['export_files', 'export_rows'] -%}
        {%- do run_query("create table if not exists raw." ~ table ~ " using parquet
            options (mergeSchema 'true') location '" ~ landing ~ "/" ~ table ~ "'") -%}
        {%- do run_query("refresh table raw." ~ table) -%}
    {%- endfor -%}
    {#- the schema given: a load of the exports alone writes no RAG documents -#}
    {%- do run_query("create table if not exists raw.rag_documents (kind string,
        source_path string, source_file string, size_bytes bigint, content_hash string,
        document string, problem string, loaded_at timestamp) using parquet
        location '" ~ landing ~ "/rag_documents'") -%}
    {%- do run_query("refresh table raw.rag_documents") -%}
{% endmacro %}


{% macro say_refused_files() %}
    {#- The last lines of a build name every file that gives no scored row (rejected_files)
        and why: a refused file never fails the build, so it must not pass unseen. -#}
    {%- if execute and flags.WHICH in ('build', 'run') -%}
        {%- set relation = adapter.get_relation(database=target.database, schema=target.schema,
                                                identifier='rejected_files') -%}
        {%- if relation is not none -%}
            {%- set found = run_query('select source_path, reject_reason from ' ~ relation
                                      ~ ' order by source_file') -%}
            {%- if found.rows | length > 0 -%}
                {{- log(found.rows | length ~ ' file(s) refused, not scored (rejected_files); every other file is scored:', info=True) -}}
                {%- for row in found.rows -%}
                    {{- log('  refused ' ~ row[0] ~ ': ' ~ row[1], info=True) -}}
                {%- endfor -%}
            {%- endif -%}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
