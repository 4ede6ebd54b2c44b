{% macro first_runs(runs) -%}
    {#- A subquery: for each run of `runs` (agent, source_file, previous_source_file), the
        first run of its line of previous runs (agent, source_file, first_file). A line that
        loops (an override) or ends in a file that is not there has no first run (null).
        Pointer doubling: each step follows the pointer of the run a run points at, so a line
        of n runs takes log2(n) steps, all in one query. -#}
    {{ return(adapter.dispatch('first_runs', 'agent_scoring')(runs)) }}
{%- endmacro %}

{#- 2^20 runs in one line is more than any history holds -#}
{% macro line_steps() %}{{ return(20) }}{% endmacro %}

{% macro duckdb__first_runs(runs) -%}
    {#- one self-join per step: DuckDB computes each step once however often it is read -#}
    (
        with step_0 as (
            select
                child.agent,
                child.source_file,
                case
                    when child.previous_source_file is null then child.source_file
                    else parent.source_file
                end as pointer
            from {{ runs }} as child
            left join {{ runs }} as parent
                on parent.agent = child.agent
                and parent.source_file = child.previous_source_file
        ),
        {%- for step in range(1, line_steps() + 1) %}

        step_{{ step }} as (
            select here.agent, here.source_file, onward.pointer
            from step_{{ step - 1 }} as here
            left join step_{{ step - 1 }} as onward
                on onward.agent = here.agent and onward.source_file = here.pointer
        ){{ ',' if not loop.last }}
        {%- endfor %}

        select
            last_step.agent,
            last_step.source_file,
            first_run.source_file as first_file
        from step_{{ line_steps() }} as last_step
        left join {{ runs }} as first_run
            on first_run.agent = last_step.agent
            and first_run.source_file = last_step.pointer
            and first_run.previous_source_file is null
    )
{%- endmacro %}

{% macro spark__first_runs(runs) -%}
    {#- Spark inlines a CTE read twice, so a self-join per step would double the plan each
        step: the pointers of an agent's runs are one map, doubled in place -#}
    (
        with pointers as (
            select
                agent,
                map_from_entries(collect_list(struct(
                    source_file,
                    coalesce(previous_source_file, source_file)
                ))) as pointer_map
            from {{ runs }}
            group by agent
        ),

        doubled as (
            select
                agent,
                aggregate(
                    sequence(1, {{ line_steps() }}),
                    pointer_map,
                    (pointers, step) -> map_from_entries(transform(
                        map_entries(pointers),
                        entry -> struct(
                            entry.key,
                            case when entry.value is not null
                                then try_element_at(pointers, entry.value) end
                        )
                    ))
                ) as pointer_map
            from pointers
        ),

        last_step as (
            select agent, pointer.key as source_file, pointer.value as pointer
            from doubled
            lateral view explode(map_entries(pointer_map)) as pointer
        )

        select
            last_step.agent,
            last_step.source_file,
            first_run.source_file as first_file
        from last_step
        left join {{ runs }} as first_run
            on first_run.agent = last_step.agent
            and first_run.source_file = last_step.pointer
            and first_run.previous_source_file is null
    )
{%- endmacro %}
