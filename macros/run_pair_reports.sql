{#-
    The reporting models of a pair of runs: what `score-report compare` and `check` print,
    and the report's 이전 실행 대비. Each model's SQL is a macro of `between`:
    - between=false, the model: every run with its previous run (runs.previous_source_file,
      the pairs item_changes and run_comparisons hold);
    - between=true, the warehouse table macro <model>_between(base, head) that the model's
      post-hook creates (config_run_pair_report): the same SQL for any two runs of an agent,
      which `compare --base` and `check --base` select when the build did not compare them.
-#}

{% macro config_run_pair_report(rows) -%}
    {#- The config of a pair report whose rows are the macro named `rows`. -#}
    {{ config(materialized='view', post_hook=
        "{{ create_run_pair_macro(this.identifier, " ~ rows ~ "(between=true)) }}") }}
{%- endmacro %}


{% macro create_run_pair_macro(name, rows) %}
    {{ return(adapter.dispatch('create_run_pair_macro', 'agent_scoring')(name, rows)) }}
{% endmacro %}

{% macro duckdb__create_run_pair_macro(name, rows) %}
    create or replace macro {{ name }}_between(base, head) as table {{ rows }}
{% endmacro %}

{% macro spark__create_run_pair_macro(name, rows) %}
    {#- not on Spark yet: compare any two runs on the DuckDB warehouse -#}
    select 1
{% endmacro %}


{% macro run_pairs(between, runs=none) -%}
    {#- (agent, source_file, base_file): each run with its previous run; in the table macro,
        the head run with the base it was given. From `runs` (runs, or run_trends). -#}
    select agent, source_file, {{ 'base' if between else 'previous_source_file' }} as base_file
    from {{ runs or ref('runs') }}
    where {{ 'source_file = head' if between else 'previous_source_file is not null' }}
{%- endmacro %}


{% macro run_pair_items(between) -%}
    {{- 'item_changes_between(base, head)' if between else ref('item_changes') -}}
{%- endmacro %}


{% macro item_change_kinds() -%}
    {#- Each item_changes.change in the compare report's order, its section title, and
        whether the base side is the one that fell short (upward). -#}
    {{ return([
        ('regressed', '회귀 (통과 → 실패)', false),
        ('improved', '개선 (실패 → 통과)', true),
        ('score_down', '점수 하락 (같은 판정, 1점 이상)', false),
        ('score_up', '점수 상승 (같은 판정, 1점 이상)', true),
        ('new', '새 질의 (이번 실행에만 있음)', false),
        ('removed', '빠진 질의 (이전 실행에만 있음)', true),
        ('unchanged', '변화 없음', false),
    ]) }}
{%- endmacro %}


{% macro item_change_kind_rows() -%}
    {%- for change, title, upward in item_change_kinds() %}
    select
        '{{ change }}' as change,
        {{ loop.index }} as change_order,
        {{ sql_string(title) }} as change_title,
        {{ 'true' if upward else 'false' }} as upward
    {{ 'union all' if not loop.last }}
    {%- endfor %}
{%- endmacro %}


{% macro previous_run_rows(between=false) %}
    {#- report_previous_runs: per pair, the change of each headline figure, how many items
        regressed or improved, and whether an LLM model or prompt version graded the two
        runs differently. -#}
    with pairs as (
        {{ run_pairs(between) }}
    ),

    runs as (
        select * from {{ ref('runs') }}
    ),

    changes as (
        select
            head_file,
            base_file,
            count(case when change = 'regressed' then 1 end) as regressed,
            count(case when change = 'improved' then 1 end) as improved
        from {{ run_pair_items(between) }}
        group by head_file, base_file
    )

    select
        pairs.agent,
        pairs.source_file,
        pairs.base_file,
        head_run.intent_score - base_run.intent_score as intent_delta,
        head_run.accuracy_score - base_run.accuracy_score as accuracy_delta,
        head_run.consistency_score - base_run.consistency_score as consistency_delta,
        head_run.stability_score - base_run.stability_score as stability_delta,
        head_run.mean_response_time_sec - base_run.mean_response_time_sec as latency_delta,
        head_run.item_speed_points_mean - base_run.item_speed_points_mean as speed_delta,
        head_run.item_count - base_run.item_count as item_count_delta,
        coalesce(changes.regressed, 0) as regressed,
        coalesce(changes.improved, 0) as improved,
        head_run.llm_models is distinct from base_run.llm_models as llm_models_differ,
        head_run.prompt_versions is distinct from base_run.prompt_versions
            as prompt_versions_differ
    from pairs
    inner join runs as head_run on head_run.source_file = pairs.source_file
    inner join runs as base_run on base_run.source_file = pairs.base_file
    left join changes
        on changes.head_file = pairs.source_file
        and changes.base_file = pairs.base_file
{% endmacro %}


{% macro compare_change_rows(between=false) %}
    {#- report_compare_changes: per pair and kind of change (item_change_kinds), its items;
        every kind, with 0 when none. -#}
    with pairs as (
        {{ run_pairs(between) }}
    ),

    kinds as (
        {{ item_change_kind_rows() }}
    ),

    counts as (
        select head_file, base_file, change, count(*) as item_count
        from {{ run_pair_items(between) }}
        group by head_file, base_file, change
    )

    select
        pairs.agent,
        pairs.source_file,
        pairs.base_file,
        kinds.change_order,
        kinds.change,
        kinds.change_title,
        kinds.upward,
        coalesce(counts.item_count, 0) as item_count
    from pairs
    cross join kinds
    left join counts
        on counts.head_file = pairs.source_file
        and counts.base_file = pairs.base_file
        and counts.change = kinds.change
{% endmacro %}


{% macro compare_item_rows(between=false) %}
    {#- report_compare_items: per pair, every item in the compare report's order (by kind of
        change, Query ID and round), why it fell short on the side that did (an empty reply,
        else its error, else its failed checks), the checks that flipped, and how much slower
        it answered, ranked slowest-growing first. -#}
    with kinds as (
        {{ item_change_kind_rows() }}
    ),

    items as (
        select
            changes.*,
            kinds.change_order,
            kinds.upward,
            case when changes.head_response_time_sec > changes.base_response_time_sec
                then changes.head_response_time_sec - changes.base_response_time_sec
            end as slowdown_sec
        from {{ run_pair_items(between) }} as changes
        inner join kinds on kinds.change = changes.change
    ),

    explained as (
        select
            items.*,
            case
                when (case when upward then base_status else head_status end) = 'empty'
                    then '빈 응답 (assistantMessage·dataUIList 없음)'
                when upward
                    then coalesce(nullif(base_error_message, ''), nullif(base_failed_checks, ''), '')
                else coalesce(nullif(head_error_message, ''), nullif(head_failed_checks, ''), '')
            end as shortfall,
            {{ list_joined('case when upward then checks_passing_now else checks_failing_now end',
                           "', '") }} as flipped_checks
        from items
    )

    select
        agent,
        head_file as source_file,
        base_file,
        row_number() over (
            partition by head_file, base_file
            order by change_order, coalesce(query_id, ''), coalesce(round_room, 0),
                coalesce(round_repeat, 0), query_text, head_record_no, base_record_no
        ) as item_rank,
        change,
        query_id,
        query_text,
        round_label,
        base_status,
        head_status,
        base_score,
        head_score,
        shortfall,
        coalesce(flipped_checks, '') as flipped_checks,
        base_response_time_sec,
        head_response_time_sec,
        slowdown_sec,
        case when slowdown_sec is not null then row_number() over (
            partition by head_file, base_file, slowdown_sec is null
            order by slowdown_sec desc, coalesce(query_id, ''), coalesce(round_room, 0),
                coalesce(round_repeat, 0), query_text, head_record_no
        ) end as slowdown_rank
    from explained
{% endmacro %}


{% macro compare_latency_rows(between=false) %}
    {#- report_compare_latency: per pair and speed rubric (var speed_rubrics) timed in either
        run, the p50 / p90 latency of its items in both runs (run_trends) and the p90's change
        in percent (null without a base p90 above 0). -#}
    with trends as (
        select * from {{ ref('run_trends') }}
    ),

    pairs as (
        {{ run_pairs(between, 'trends') }}
    ),

    latency as (
        {%- for rubric in var('speed_rubrics') %}
        select
            pairs.agent,
            pairs.source_file,
            pairs.base_file,
            {{ loop.index }} as rubric_order,
            '{{ rubric }}' as speed_rubric,
            {{ sql_string(var('speed_rubric_names')[rubric]) }} as rubric_name,
            base_run.p50_{{ rubric }}_sec as base_p50_sec,
            head_run.p50_{{ rubric }}_sec as head_p50_sec,
            base_run.p90_{{ rubric }}_sec as base_p90_sec,
            head_run.p90_{{ rubric }}_sec as head_p90_sec
        from pairs
        inner join trends as head_run on head_run.source_file = pairs.source_file
        inner join trends as base_run on base_run.source_file = pairs.base_file
        where head_run.p50_{{ rubric }}_sec is not null
            or base_run.p50_{{ rubric }}_sec is not null
        {{ 'union all' if not loop.last }}
        {%- endfor %}
    )

    select
        *,
        case when base_p90_sec > 0
            then (head_p90_sec - base_p90_sec) / base_p90_sec * 100
        end as p90_increase_pct
    from latency
{% endmacro %}


{% macro run_comparison_verdicts(between=false) %}
    {#- report_run_comparisons: per pair and metric, its run_comparisons row in the reports'
        order with their name for it, and whether the change is significant at 95%
        (docs/rules.md, "Is a change real?"): its interval wholly on one side of zero, or
        McNemar's p below ci_alpha() with more flips that way. -#}
    {%- set metrics = [
        ('intent', '의도 충족', false), ('accuracy', '정확성', false),
        ('consistency', '일관성', false), ('stability', '안정성', false),
        ('speed', '속도 점수(문항 평균)', false), ('total', '종합 점수', false),
        ('pass_any_round', 'pass@k', true), ('pass_all_rounds', 'pass^k', true)] %}
    with pairs as (
        {{ run_pairs(between) }}
    ),

    metrics as (
        {%- for metric, label, as_share in metrics %}
        select
            '{{ metric }}' as metric,
            {{ loop.index }} as metric_order,
            {{ sql_string(label) }} as metric_label,
            {{ 'true' if as_share else 'false' }} as as_share
        {{ 'union all' if not loop.last }}
        {%- endfor %}
    ),

    comparisons as (
        select
            comparisons.*,
            comparisons.delta_ci_high < 0 or (comparisons.mcnemar_p < {{ ci_alpha() }}
                and comparisons.regressed > comparisons.improved) as is_worse,
            comparisons.delta_ci_low > 0 or (comparisons.mcnemar_p < {{ ci_alpha() }}
                and comparisons.improved > comparisons.regressed) as is_better
        from {{ 'run_comparisons_between(base, head)' if between else ref('run_comparisons') }}
            as comparisons
        inner join pairs
            on pairs.source_file = comparisons.head_file
            and pairs.base_file = comparisons.base_file
    )

    select
        comparisons.agent,
        comparisons.head_file as source_file,
        comparisons.base_file,
        comparisons.metric,
        metrics.metric_order,
        metrics.metric_label,
        metrics.as_share,
        comparisons.paired_count,
        comparisons.query_count,
        comparisons.base_value,
        comparisons.head_value,
        comparisons.delta,
        comparisons.delta_se,
        comparisons.delta_ci_low,
        comparisons.delta_ci_high,
        comparisons.regressed,
        comparisons.improved,
        comparisons.mcnemar_p,
        case
            when comparisons.is_worse then 'worse'
            when comparisons.is_better then 'better'
            else 'none'
        end as verdict,
        case
            when comparisons.is_worse then '유의한 하락'
            when comparisons.is_better then '유의한 상승'
            else '유의하지 않음'
        end as verdict_label
    from comparisons
    inner join metrics on metrics.metric = comparisons.metric
{% endmacro %}
