{{ config_incremental_by_file('int_scoring__item_scores') }}
-- Per agent, file and 카테고리: how its items fail - errors, empty replies, totals below
-- var('fail_total_below') - and the most frequent error pattern (digits folded to N), as
-- the team's platform groups its failure patterns. Stored per file as its items change: as
-- a view, each read (the report, its test) grouped every item again.

with items as {{ not_materialized() }} (
    select
        *,
        coalesce(category, '(없음)') as category_name,
        case
            when status = 'error'
                then {{ error_pattern('error_message', 80) }}
            when status = 'empty' then '(빈 응답)'
            when total_score < {{ var('fail_total_below') }} then '(종합 점수 미달)'
        end as failure_pattern
    from {{ ref('int_scoring__item_scores') }}
    where {{ new_file_versions() }}
),

patterns as (
    select agent, source_file, category_name, failure_pattern, count(*) as pattern_count
    from items
    where failure_pattern is not null
    group by all
),

top_patterns as (
    select
        agent,
        source_file,
        category_name,
        {{ first_in_order('failure_pattern', 'pattern_count desc, failure_pattern') }}
            as failure_pattern
    from patterns
    group by all
)

select
    items.agent,
    items.source_file,
    items.file_fingerprint,
    items.category_name as category,
    count(*) as item_count,
    count(*) filter (where items.status = 'error') as error_count,
    count(*) filter (where items.status = 'empty') as empty_count,
    count(*) filter (where items.total_score < {{ var('fail_total_below') }}) as fail_count,
    -- summed exactly: a stored mean must not depend on the order its rows were met in
    {{ mean_score("items.total_score") }} as total_score,
    top_patterns.failure_pattern as top_failure_pattern
from items
left join top_patterns
    on top_patterns.agent = items.agent
    and top_patterns.source_file = items.source_file
    and top_patterns.category_name = items.category_name
group by
    items.agent,
    items.source_file,
    items.file_fingerprint,
    items.category_name,
    top_patterns.failure_pattern
