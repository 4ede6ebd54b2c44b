{#-
    Row invariants of every model and seed, declared in its YAML and checked in ONE query at
    the end of the run (no dbt node per model and rule):

        config:
          meta:
            invariants:
              not_null:    [columns that are never null]
              unique:      [[column lists that identify a row (rows with a null skipped)]]
              accepted:    {column: [values]}   (a null passes, as in dbt's accepted_values)
              agents:      [columns that name an agent of the registry]
              scores:      [0-5 scores: null (unscored) or between 0 and 5]
              expressions: [SQL conditions that hold on every row (null counts as broken)]
              references:  [{columns: [..], to: model or seed, to_columns: [..] (default:
                           the same names)}]: every non-null combination exists there
              rows:        the exact number of rows (a one-row settings seed)

    A broken rule fails the build with one message naming each model, each broken rule and how
    many rows break it, e.g.
    `item_scores: 2 rows where status is null; 1 row where intent_score is outside 0-5`.
    When every rule holds the run's log says how many were checked. A model is checked when
    it (or a model it references) was built in the run; one kept unchanged was checked when it
    was built, and one whose rules broke loses its build key, so the next build checks it again.
-#}

{% macro check_invariants() %}
    {#- on-run-end: every model and seed this run built successfully, checked at once. -#}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {{ explain_broken_expectations() }}
    {#- a node kept unchanged (macros/materializations/unchanged.sql) was checked when built -#}
    {%- set kept = build_state().kept -%}
    {%- set built = [] -%}
    {%- for result in results
        if result.status in ('success', 'pass', 'warn') and result.node.unique_id not in kept -%}
        {%- do built.append(result.node.unique_id) -%}
    {%- endfor -%}
    {%- if kept -%}
        {%- set tests = namespace(count=0) -%}
        {%- for unique_id in kept if unique_id.startswith('test.') -%}
            {%- set tests.count = tests.count + 1 -%}
        {%- endfor -%}
        {{ log("unchanged since they were built (same SQL, config and inputs): "
               ~ (kept | length - tests.count) ~ " models and seeds kept, " ~ tests.count
               ~ " test outcomes replayed", info=true) }}
    {%- endif -%}
    {%- set relations = {} -%}
    {%- for node in graph.nodes.values() if node.resource_type in ('model', 'seed') -%}
        {%- do relations.update({node.name: {'unique_id': node.unique_id,
            'relation': api.Relation.create(database=node.database, schema=node.schema,
                                            identifier=node.alias or node.name)}}) -%}
    {%- endfor -%}
    {%- set failed = [] -%}
    {%- for result in results if result.status in ('error', 'skipped') -%}
        {%- do failed.append(result.node.unique_id) -%}
    {%- endfor -%}
    {%- set checked = {} -%}
    {%- set queries = [] -%}
    {%- set counted = namespace(rules=0) -%}
    {%- for node in graph.nodes.values() if (node.config.meta or {}).get('invariants') -%}
        {%- set rules = node.config.meta.invariants -%}
        {%- set depends = [node.unique_id] -%}
        {%- for reference in rules.get('references', []) -%}
            {%- do depends.append(relations[reference.to].unique_id) -%}
        {%- endfor -%}
        {#- after a failed model, what depends on it may not exist: nothing to check there -#}
        {%- if depends | select('in', built) | list
            and not depends | select('in', failed) | list -%}
            {%- set relation = relations[node.name].relation -%}
            {%- do checked.update({relation.identifier: relation}) -%}
            {%- do queries.append('select * from (' ~ invariants_query(relation, rules, relations) ~ ')') -%}
            {%- for kind, listed in rules.items() -%}
                {%- set counted.rules = counted.rules + (1 if kind == 'rows' else (listed | length)) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not queries -%}
        {{ return('') }}
    {%- endif -%}
    {%- set failures = run_query(queries | join('\nunion all\n')) -%}
    {%- if failures | length > 0 -%}
        {#- no build key: the next build rebuilds these and checks them again -#}
        {%- for row in failures -%}
            {%- call statement('forget_build_key', auto_begin=false) -%}
                comment on table {{ checked[row[0]] }} is null
            {%- endcall -%}
        {%- endfor -%}
        {{ exceptions.raise_compiler_error(
            'row invariants broken (config.meta.invariants):\n  '
            ~ (failures.columns[1].values() | join('\n  '))) }}
    {%- endif -%}
    {{ log("row invariants held: " ~ counted.rules ~ " rules on " ~ (queries | length)
           ~ " models and seeds (config.meta.invariants)", info=true) }}
    {{ return('') }}
{% endmacro %}


{% macro explain_broken_expectations() %}
    {#-
        dbt says only that a test warned and how many rows it returned; a `holds` test
        returns one row per broken expectation, so say which, e.g.
        `rag_judgements__expectations_hold: 1 row(s) where not (passed_matches_stored)`.
        Also for an outcome replayed from an earlier build (its SQL is the same).
    -#}
    {%- for result in results if result.status in ('warn', 'fail')
        and result.node.resource_type == 'test'
        and result.node.test_metadata is defined
        and result.node.test_metadata.name == 'holds' -%}
        {%- set broken = run_query(result.node.compiled_code) -%}
        {%- for row in broken -%}
            {{ log(result.status | upper ~ " " ~ result.node.name ~ ": " ~ row[1]
                   ~ " row(s) where not (" ~ row[0] ~ ")", info=true) }}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}


{% macro invariants_query(relation, rules, relations={}) %}
    {%- set not_null = rules.get('not_null', []) -%}
    {%- set unique = rules.get('unique', []) -%}
    {%- set accepted = rules.get('accepted', {}) -%}
    {%- set agents = rules.get('agents', []) -%}
    {%- set scores = rules.get('scores', []) -%}
    {%- set expressions = rules.get('expressions', []) -%}
    {%- set exact_rows = rules.get('rows') -%}
    {%- set checks = [] -%}
    {%- for c in not_null -%}
        {%- do checks.append((c ~ ' is null', c ~ ' is null')) -%}
    {%- endfor -%}
    {%- for c, values in accepted.items() -%}
        {%- set listed = [] -%}
        {%- for v in values -%}{%- do listed.append(sql_string(v)) -%}{%- endfor -%}
        {%- do checks.append((
            c ~ ' is not one of ' ~ (values | join(', ')),
            c ~ '::varchar not in (' ~ listed | join(', ') ~ ')')) -%}
    {%- endfor -%}
    {%- for c in agents -%}
        {%- set listed = [] -%}
        {%- for v in var('agents') -%}{%- do listed.append(sql_string(v)) -%}{%- endfor -%}
        {%- do checks.append((
            c ~ ' is not a registered agent (vars.agents)',
            c ~ ' not in (' ~ listed | join(', ') ~ ')')) -%}
    {%- endfor -%}
    {%- for c in scores -%}
        {%- do checks.append((c ~ ' is outside 0-5', c ~ ' not between 0 and 5')) -%}
    {%- endfor -%}
    {%- for condition in expressions -%}
        {%- do checks.append(('not (' ~ condition ~ ')', 'not coalesce(' ~ condition ~ ', false)')) -%}
    {%- endfor -%}
    {%- for reference in rules.get('references', []) -%}
        {%- set to_columns = reference.get('to_columns', reference.columns) -%}
        {%- set matched = [] -%}
        {%- for c in reference.columns -%}
            {%- do matched.append('referenced.' ~ to_columns[loop.index0] ~ ' = checked.' ~ c) -%}
        {%- endfor -%}
        {%- do checks.append((
            '(' ~ reference.columns | join(', ') ~ ') is not in ' ~ reference.to
                ~ ' (' ~ to_columns | join(', ') ~ ')',
            'checked.' ~ reference.columns | join(' is not null and checked.') ~ ' is not null'
                ~ ' and not exists (select 1 from ' ~ relations[reference.to].relation
                ~ ' as referenced where ' ~ matched | join(' and ') ~ ')')) -%}
    {%- endfor %}

    {#- one row when something is broken: model, "<model>: <n> rows where <rule>; …" -#}
    select {{ sql_string(relation.identifier) }} as model,
        {{ sql_string(relation.identifier ~ ': ') }} || concat_ws('; '
        {%- for label, broken in checks %},
        case when rule_{{ loop.index }} > 0 then rule_{{ loop.index }} || ' row(s) where '
            || {{ sql_string(label) }} end
        {%- endfor %}
        {%- for key in unique %},
        case when unique_{{ loop.index }} > 0 then unique_{{ loop.index }}
            || ' row(s) where (' || {{ sql_string(key | join(', ')) }} || ') repeats' end
        {%- endfor %}
        {%- if exact_rows is not none %},
        case when row_count <> {{ exact_rows }} then row_count || ' rows, not '
            || {{ exact_rows }} end
        {%- endif %}
    ) as failure
    from (
        select
            {%- for label, broken in checks %}
            count_if({{ broken }}) as rule_{{ loop.index }},
            {%- endfor %}
            {%- for key in unique %}
            count_if({{ key | join(' is not null and ') }} is not null)
                - count(distinct case when {{ key | join(' is not null and ') }} is not null
                    then ({{ key | join(', ') }}) end) as unique_{{ loop.index }},
            {%- endfor %}
            count(*) as row_count
        from {{ relation }} as checked
    ) as counted
    where false
        {%- for label, broken in checks %} or rule_{{ loop.index }} > 0{% endfor %}
        {%- for key in unique %} or unique_{{ loop.index }} > 0{% endfor %}
        {%- if exact_rows is not none %} or row_count <> {{ exact_rows }}{% endif %}
{% endmacro %}
