{#- The warehouse records each dbt invocation that writes to it (raw.builds), so that
    `score-report` can refuse a warehouse whose last build did not finish: a build killed or
    failed half-way leaves some marts new and others old. -#}

{% macro build_started() %}
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
    {{- not (invocation_args_dict.get('select') or invocation_args_dict.get('exclude')
             or invocation_args_dict.get('selector')) -}}
{%- endmacro %}

{#- Complete: nothing failed, and either this run built the whole project or the warehouse
    was complete before it (a `--select` run does not mend a broken build). -#}
{% macro build_ended(results) %}
    {%- if flags.WHICH in ('build', 'run', 'seed') -%}
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
    {%- endif %}
    update raw.builds as this_build
    set ended_at = current_localtimestamp(),
        failures = {{ failed | length }},
        first_failure = {{ "'" ~ first[:500].replace("'", "''") ~ "'" if first else 'null' }},
        -- an earlier build that never ended (ended_at null) was not complete
        complete = {{ failed | length }} = 0 and (whole_project or coalesce((
            select coalesce(earlier.complete, false)
            from raw.builds as earlier
            where earlier.build_no < this_build.build_no
            order by earlier.build_no desc
            limit 1
        ), true))
    where invocation_id = '{{ invocation_id }}'
    {%- endif -%}
{% endmacro %}
