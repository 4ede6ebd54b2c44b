-- One row per agent and source file: one run of a test set, its headline figures and the
-- run before it. The previous run is the latest earlier run of the same agent (ordered by
-- started_at, then file name) that has at least half of this run's queries - by Query ID,
-- or by whitespace-normalised query text when the platform gave the queries new IDs.
-- var run_pairs overrides the pairing of a head file (a base of null: no previous run).
-- Runs are compared as query sets, not run by run: the pairing scans each distinct set of
-- queries once, however many runs share it.
{%- set pairs = var('run_pairs', []) %}
{%- set half = var('run_pair_min_shared_share') %}

with files as (
    select * from {{ ref('int_scoring__run_files') }}
),

queries as (
    select * from {{ ref('int_scoring__run_queries') }}
),

ordered as (
    select
        files.*,
        row_number() over (
            partition by files.agent order by files.started_at nulls first, files.source_file
        ) as run_order
    from files
),

id_sets as (
    -- each query set from one of its files: files of one query_set_hash hold the same Query
    -- IDs, and of one text_set_hash the same texts (int_scoring__run_files), so the other
    -- files add nothing to read
    select distinct sets.agent, sets.query_set_hash, queries.query_id as query_key
    from (
        select agent, query_set_hash, min(source_file) as source_file
        from files
        group by agent, query_set_hash
    ) as sets
    inner join queries using (agent, source_file)
    where queries.query_id is not null
),

text_sets as (
    select distinct sets.agent, sets.text_set_hash, queries.query_key
    from (
        select agent, text_set_hash, min(source_file) as source_file
        from files
        group by agent, text_set_hash
    ) as sets
    inner join queries using (agent, source_file)
    where queries.query_key is not null
),

id_set_sizes as (
    select agent, query_set_hash, count(*) as size from id_sets group by all
),

text_set_sizes as (
    select agent, text_set_hash, count(*) as size from text_sets group by all
),

id_overlaps as (
    -- for every two query sets of an agent: the share of the head set found in the base set
    select
        head.agent,
        head.query_set_hash as head_set,
        base.query_set_hash as base_set,
        count(*) / any_value(sizes.size) as share
    from id_sets as head
    inner join id_sets as base
        on base.agent = head.agent and base.query_key = head.query_key
    inner join id_set_sizes as sizes
        on sizes.agent = head.agent and sizes.query_set_hash = head.query_set_hash
    group by all
),

text_overlaps as (
    select
        head.agent,
        head.text_set_hash as head_set,
        base.text_set_hash as base_set,
        count(*) / any_value(sizes.size) as share
    from text_sets as head
    inner join text_sets as base
        on base.agent = head.agent and base.query_key = head.query_key
    inner join text_set_sizes as sizes
        on sizes.agent = head.agent and sizes.text_set_hash = head.text_set_hash
    group by all
),

candidates as (
    -- every earlier run that has at least half of a run's queries: found through the
    -- overlapping query sets, so runs of unrelated test sets are never joined
    select
        head.agent,
        head.source_file,
        base.source_file as base_file,
        base.run_order as base_order
    from id_overlaps as overlap
    inner join ordered as head
        on head.agent = overlap.agent and head.query_set_hash = overlap.head_set
    inner join ordered as base
        on base.agent = overlap.agent and base.query_set_hash = overlap.base_set
        and base.run_order < head.run_order
    where overlap.share >= {{ half }}
    union
    select head.agent, head.source_file, base.source_file, base.run_order
    from text_overlaps as overlap
    inner join ordered as head
        on head.agent = overlap.agent and head.text_set_hash = overlap.head_set
    inner join ordered as base
        on base.agent = overlap.agent and base.text_set_hash = overlap.base_set
        and base.run_order < head.run_order
    where overlap.share >= {{ half }}
),

automatic as (
    select
        agent,
        source_file,
        max_by(base_file, base_order) as base_file
    from candidates
    group by all
),

overridden as (
    {%- for pair in pairs %}
    select
        {{ sql_string(pair['agent']) }} as agent,
        {{ sql_string(pair['head']) }} as source_file,
        {{ sql_string(pair['base']) if pair.get('base') else 'null::string' }} as base_file
    union all
    {%- endfor %}
    select null::string as agent, null::string as source_file, null::string as base_file
    where false
),

paired as (
    select
        ordered.*,
        case
            when overridden.source_file is not null then overridden.base_file
            else automatic.base_file
        end as previous_source_file,
        case
            when overridden.source_file is not null then 'override'
            when automatic.base_file is not null then 'auto'
        end as pairing
    from ordered
    left join automatic
        on automatic.agent = ordered.agent and automatic.source_file = ordered.source_file
    left join overridden
        on overridden.agent = ordered.agent and overridden.source_file = ordered.source_file
),

with_shares as (
    -- how much of each run the chosen previous run shares (an override may share little)
    select
        paired.*,
        coalesce(by_id.share, 0) as shared_id_share,
        coalesce(by_text.share, 0) as shared_text_share
    from paired
    left join ordered as base
        on base.agent = paired.agent and base.source_file = paired.previous_source_file
    left join id_overlaps as by_id
        on by_id.agent = paired.agent and by_id.head_set = paired.query_set_hash
        and by_id.base_set = base.query_set_hash
    left join text_overlaps as by_text
        on by_text.agent = paired.agent and by_text.head_set = paired.text_set_hash
        and by_text.base_set = base.text_set_hash
),

chain as (
    -- a test set is a line of runs: each run belongs to the set of its first run
    select lines.agent, lines.source_file, first_run.query_set_hash as test_set_key
    from {{ first_runs('with_shares') }} as lines
    inner join with_shares as first_run
        on first_run.agent = lines.agent and first_run.source_file = lines.first_file
),

figures as (
    select
        agent,
        source_file,
        intent_score,
        accuracy_score,
        stability_score,
        consistency_score,
        mean_response_time_sec,
        speed_points,
        item_speed_points_mean,
        pass_k,
        pass_any_round_rate,
        pass_all_rounds_rate,
        flaky_query_count,
        intent_score_ci_low,
        intent_score_ci_high,
        accuracy_score_ci_low,
        accuracy_score_ci_high,
        stability_score_ci_low,
        stability_score_ci_high,
        consistency_score_ci_low,
        consistency_score_ci_high
    from {{ ref('set_scores') }}
    where track = 'all'
)

select
    runs.agent,
    runs.source_file,
    runs.run_id,
    runs.started_at,
    runs.ended_at,
    runs.run_order,
    -- a run whose line of previous runs loops (an override) keeps its own query set
    coalesce(chain.test_set_key, runs.query_set_hash) as test_set_key,
    runs.query_set_hash,
    runs.query_count,
    runs.item_count,
    runs.round_count,
    figures.intent_score,
    figures.accuracy_score,
    figures.stability_score,
    figures.consistency_score,
    figures.mean_response_time_sec,
    figures.speed_points,
    figures.item_speed_points_mean,
    runs.previous_source_file,
    runs.pairing,
    case
        when runs.previous_source_file is null then null
        when runs.shared_id_share >= {{ half }} then 'query_id'
        else 'query_text'
    end as pair_key,
    case when runs.previous_source_file is not null
        then greatest(runs.shared_id_share, runs.shared_text_share) end as shared_query_share,
    figures.pass_k,
    figures.pass_any_round_rate,
    figures.pass_all_rounds_rate,
    figures.flaky_query_count,
    runs.llm_models,
    runs.prompt_versions,
    figures.intent_score_ci_low,
    figures.intent_score_ci_high,
    figures.accuracy_score_ci_low,
    figures.accuracy_score_ci_high,
    figures.stability_score_ci_low,
    figures.stability_score_ci_high,
    figures.consistency_score_ci_low,
    figures.consistency_score_ci_high,
    -- the agent's latest run: what `compare` and `check` take by default
    runs.run_order = max(runs.run_order) over (partition by runs.agent) as is_latest_run
from with_shares as runs
left join chain
    on chain.agent = runs.agent and chain.source_file = runs.source_file
left join figures on figures.agent = runs.agent and figures.source_file = runs.source_file
