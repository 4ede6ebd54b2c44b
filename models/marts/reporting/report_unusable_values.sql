{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The report's 데이터 품질 section, its lines on values scored without their meaning: response
-- times that give no speed score (by problem) and LLM 상태 values seeds/llm_statuses.csv does
-- not know, counted per file, most frequent first, each as the report names it. Stored per
-- file as its item rows change.

{%- set unusable -%}
    (response_time_problem is not null and response_time_problem <> 'missing')
    or llm_status_class = 'unknown'
{%- endset %}

with items as (
    select
        agent,
        source_file,
        file_fingerprint,
        response_time_problem,
        llm_status,
        llm_status_class
    from {{ ref('int_scoring__item_scores') }}
    where ({{ unusable }})
        and {{ new_file_versions('source_file', unusable) }}
),

counted as (
    select
        agent,
        source_file,
        file_fingerprint,
        'response_time_problem' as value_kind,
        response_time_problem as value,
        count(*) as row_count
    from items
    where response_time_problem is not null and response_time_problem <> 'missing'
    group by agent, source_file, file_fingerprint, response_time_problem
    union all
    select
        agent,
        source_file,
        file_fingerprint,
        'unknown_llm_status' as value_kind,
        llm_status as value,
        count(*) as row_count
    from items
    where llm_status_class = 'unknown'
    group by agent, source_file, file_fingerprint, llm_status
)

select
    agent,
    source_file,
    file_fingerprint,
    value_kind,
    row_number() over (
        partition by source_file, value_kind order by row_count desc, value
    ) as value_no,
    value,
    row_count,
    case
        when value_kind <> 'response_time_problem' then value
        when value = 'comma_decimal' then {{ sql_string('쉼표 소수점("12,5")') }}
        when value = 'not_a_number' then '숫자 아님'
        when value = 'not_finite' then 'NaN·무한대'
        when value = 'negative' then '음수'
        when value = 'too_large' then '상한 초과'
        else value
    end as value_label
from counted
