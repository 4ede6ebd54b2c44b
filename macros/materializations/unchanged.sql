{#-
    A build with nothing new does no work. Every table, view, incremental model and seed keeps
    a build key in its relation's comment, and every data test its last outcome (table
    build_state.test_outcomes); a node whose key is unchanged keeps its data (shown as
    UNCHANGED) and a test replays its outcome (PASS, WARN or FAIL, with the same count).

    The key covers all a node's result depends on: its compiled SQL, its rendered hooks, its
    config (invariants and test severity included), the dbt and DuckDB versions, and the keys
    of the relations it reads. A seed's key is its file's checksum. Models that list files at
    compile time print them in their SQL. A model with `meta: {reads_files: true}` reads files
    dbt cannot see (input_file_globs(): the exports and their transcoded copies): its key adds
    each file's path, size and modification second, and it is rebuilt when one changed, or
    changed less than 2 seconds before the last build (a change within that same second would
    not show). Its stored key is then a hash of what it produced, so what is downstream
    rebuilds only when that changed.

    `dbt build --full-refresh` rebuilds and re-runs everything; a relation without a key
    (built by an earlier version, or by hand) is rebuilt.

    These override dbt's table, view, incremental, seed and test materializations in this
    project only, and delegate the work itself to them (dbt.materialization_*).
-#}

{% materialization table, adapter='duckdb', supported_languages=['sql', 'python'] %}
    {%- set key = build_key() -%}
    {%- if reads_files() -%}
        {%- set key = files_read_key(key) -%}
    {%- endif -%}
    {%- if relation_is_current(key) -%}
        {{ return(kept_unchanged('table')) }}
    {%- endif -%}
    {%- if model.language == 'python' -%}
        {#- dbt runs Python only from the materialization itself: no delegating -#}
        {%- set target_relation = this.incorporate(type='table') -%}
        {%- set intermediate_relation = make_intermediate_relation(target_relation) -%}
        {{ drop_relation_if_exists(load_cached_relation(intermediate_relation)) }}
        {%- call statement('main', language='python') -%}
            {{- create_table_as(False, intermediate_relation, compiled_code, 'python') }}
        {%- endcall -%}
        {{ drop_relation_if_exists(load_cached_relation(this)) }}
        {{ adapter.rename_relation(intermediate_relation, target_relation) }}
        {{ adapter.commit() }}
        {%- set result = {'relations': [target_relation]} -%}
    {%- else -%}
        {%- set result = dbt.materialization_table_duckdb() -%}
    {%- endif -%}
    {%- do record_build_key(key, 'table') -%}
    {{ return(result) }}
{% endmaterialization %}


{% materialization incremental, adapter='duckdb', supported_languages=['sql', 'python'] %}
    {%- set key = build_key() -%}
    {%- if relation_is_current(key) -%}
        {{ return(kept_unchanged('table')) }}
    {%- endif -%}
    {%- set result = dbt.materialization_incremental_duckdb() -%}
    {%- do record_build_key(key, 'table') -%}
    {{ return(result) }}
{% endmaterialization %}


{% materialization view, adapter='duckdb' %}
    {%- set key = build_key() -%}
    {%- if relation_is_current(key) -%}
        {{ return(kept_unchanged('view')) }}
    {%- endif -%}
    {%- set result = dbt.materialization_view_default() -%}
    {%- do record_build_key(key, 'view') -%}
    {{ return(result) }}
{% endmaterialization %}


{% materialization seed, adapter='duckdb' %}
    {%- set key = build_key() -%}
    {%- if relation_is_current(key) -%}
        {#- dbt's seed runner reads this result; the file was not loaded -#}
        {%- do store_result('agate_table', response='UNCHANGED', agate_table=none) -%}
        {{ return(kept_unchanged('table')) }}
    {%- endif -%}
    {%- set result = dbt.materialization_seed_default() -%}
    {%- do record_build_key(key, 'table') -%}
    {{ return(result) }}
{% endmaterialization %}


{% materialization test, adapter='duckdb' %}
    {%- set key = build_key() -%}
    {%- set outcomes = build_state().test_outcomes -%}
    {%- set last = outcomes.get(model.unique_id) -%}
    {%- if key is not none and not flags.FULL_REFRESH and not should_store_failures()
        and last is not none and last.key == key -%}
        {#- the result dbt's test runner reads: failures, should_warn, should_error -#}
        {%- do store_result('main', response=last.response, agate_table=last.result) -%}
        {%- do build_state().kept.append(model.unique_id) -%}
        {{ return({'relations': []}) }}
    {%- endif -%}
    {%- set result = dbt.materialization_test_default() -%}
    {%- if key is not none -%}
        {%- set row = load_result('main').table.rows[0] -%}
        {%- call statement('test_outcome') -%}
            insert or replace into build_state.test_outcomes
            values ({{ sql_string(model.unique_id) }}, {{ sql_string(key) }}, {{ row[0] }},
                {{ row[1] }}, {{ row[2] }})
        {%- endcall -%}
        {%- do adapter.commit() -%}
    {%- endif -%}
    {{ return(result) }}
{% endmaterialization %}


{% macro build_key() %}
    {#- This node's key now, or none when something it reads has no key. -#}
    {%- set stored = build_state().relation_keys -%}
    {%- set parts = [
        'build key v1', dbt_version, stored.get('duckdb version'),
        tojson(model.config, sort_keys=true), model.checksum.checksum,
        model.compiled_code or '',
    ] -%}
    {%- for hook in pre_hooks + post_hooks -%}
        {%- do parts.append(render(hook.get('sql'))) -%}
    {%- endfor -%}
    {%- for uid in model.depends_on.nodes | sort -%}
        {%- set parent = graph.nodes.get(uid) -%}
        {#- a source or an ephemeral model has no key -#}
        {%- set parent_key = none if parent is none else stored.get(build_key_name(
            api.Relation.create(schema=parent.schema, identifier=parent.alias or parent.name))) -%}
        {%- if parent_key is none -%}
            {{ return(none) }}
        {%- endif -%}
        {%- do parts.append(uid ~ '=' ~ parent_key) -%}
    {%- endfor -%}
    {{ return(local_md5(parts | join('\n'))) }}
{% endmacro %}


{% macro files_read_key(key) %}
    {#- `key` with the stamp of the files read; 'racy' when one changed in the last 2 seconds -#}
    {%- if key is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set globs = [] -%}
    {%- for glob in input_file_globs() -%}
        {%- do globs.append(sql_string(glob)) -%}
    {%- endfor -%}
    {#- auto_begin=false here and below: outside any transaction the materialization opens -#}
    {%- call statement('files_read', fetch_result=True, auto_begin=false) -%}
        select
            coalesce(string_agg(
                filename || ' ' || size || ' ' || epoch(last_modified)::bigint, chr(10)
                order by filename), '') as stamp,
            coalesce(max(last_modified) >= now() - interval 2 second, false) as racy
        from read_blob([{{ globs | join(', ') }}])
    {%- endcall -%}
    {%- set found = load_result('files_read').table.rows[0] -%}
    {{ return('racy' if found[1] else local_md5(key ~ '\n' ~ found[0])) }}
{% endmacro %}


{% macro relation_is_current(key) %}
    {{ return(
        key is not none
        and key != 'racy'
        and not flags.FULL_REFRESH
        and load_cached_relation(this) is not none
        and build_state().relation_inputs.get(build_key_name(this)) == key
    ) }}
{% endmacro %}


{% macro build_state() %}
    {#-
        The stored keys and test outcomes, read once per run by the on-run-start hook
        (load_build_state) and kept in the run's graph: one dict that every node of the run
        shares, so a node that rebuilds updates it for the nodes after it. Without the hook
        (a run with hooks off) they are read here, once per node.
    -#}
    {%- set state = graph.get('agent_scoring_build_state') -%}
    {%- if state is none -%}
        {%- set state = read_build_state() -%}
    {%- endif -%}
    {{ return(state) }}
{% endmacro %}


{% macro load_build_state() %}
    {#- on-run-start -#}
    {%- if execute -%}
        {%- do graph.update({'agent_scoring_build_state': read_build_state()}) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}


{% macro read_build_state() %}
    {%- call statement('build_state_table', auto_begin=false) -%}
        create schema if not exists build_state;
        create table if not exists build_state.test_outcomes (
            test_id varchar primary key,
            build_key varchar not null,
            failures bigint not null,
            should_warn boolean not null,
            should_error boolean not null
        )
    {%- endcall -%}
    {%- call statement('build_state', fetch_result=True, auto_begin=false) -%}
        {{ read_build_state_query() }}
    {%- endcall -%}
    {%- set found = load_result('build_state') -%}
    {%- set state = {'relation_keys': {}, 'relation_inputs': {}, 'test_outcomes': {}, 'kept': []} -%}
    {%- for row in found.table.rows -%}
        {%- if row[0] == 'relation' -%}
            {%- do state['relation_keys'].update({row[1]: row[2]}) -%}
            {%- do state['relation_inputs'].update({row[1]: row[3] or row[2]}) -%}
        {%- else -%}
            {#- this row alone, as the one-row table a test's query returns -#}
            {%- do state['test_outcomes'].update({row[1]: {
                'key': row[2], 'response': found.response,
                'result': found.table.select(['failures', 'should_warn', 'should_error'])
                    .limit(loop.index0, loop.index0 + 1)}}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(state) }}
{% endmacro %}


{% macro read_build_state_query() %}
    with relations as (
        select schema_name, table_name as relation_name, comment
        from duckdb_tables()
        where database_name = {{ sql_string(target.database) }}
        union all
        select schema_name, view_name, comment
        from duckdb_views()
        where database_name = {{ sql_string(target.database) }}
    )
    {#- 'from' keys: what a model that reads files was built from (stored_input) -#}
    select 'relation' as kind, 'duckdb version' as name, version() as build_key,
        null as stored_input,
        null::bigint as failures, null::boolean as should_warn, null::boolean as should_error
    union all
    select 'relation', schema_name || '.' || relation_name,
        regexp_extract(comment, '^build key ([0-9a-f]{32})( from ([0-9a-f]{32}|racy))?$', 1),
        nullif(regexp_extract(comment, '^build key ([0-9a-f]{32})( from ([0-9a-f]{32}|racy))?$', 3), ''),
        null, null, null
    from relations
    where comment like 'build key %'
    union all
    select 'test', test_id, build_key, null, failures, should_warn, should_error
    from build_state.test_outcomes
{% endmacro %}


{% macro build_key_name(relation) %}
    {{- return(relation.schema ~ '.' ~ relation.identifier) -}}
{% endmacro %}


{% macro kept_unchanged(relation_type) %}
    {%- call noop_statement('main', 'UNCHANGED', 'UNCHANGED') -%}{%- endcall -%}
    {%- do build_state().kept.append(model.unique_id) -%}
    {{ return({'relations': [this.incorporate(type=relation_type)]}) }}
{% endmacro %}


{% macro record_build_key(key, relation_type) %}
    {#-
        The comment `build key <key>`; for a model that reads files `build key <hash of what
        it produced> from <key>`. No key (something it reads has none): no comment, so
        nothing downstream takes this build for the one before.
    -#}
    {%- set name = build_key_name(this) -%}
    {%- set output = key -%}
    {%- if key is not none and reads_files() -%}
        {%- call statement('produced', fetch_result=True, auto_begin=false) -%}
            select md5(coalesce(string_agg(row_hash, '' order by row_hash), ''))
            from (select md5(produced::varchar) as row_hash from {{ this }} as produced)
        {%- endcall -%}
        {%- set output = load_result('produced').table.columns[0].values()[0] -%}
    {%- endif -%}
    {%- call statement('build_key', auto_begin=false) -%}
        comment on {{ relation_type }} {{ this }} is
        {{ 'null' if key is none else sql_string('build key ' ~ output
            ~ (' from ' ~ key if output != key else '')) }}
    {%- endcall -%}
    {%- do build_state().relation_keys.update({name: output}) -%}
    {%- do build_state().relation_inputs.update({name: key}) -%}
{% endmacro %}


{% macro reads_files() %}
    {{ return((config.get('meta') or {}).get('reads_files', false)) }}
{% endmacro %}
