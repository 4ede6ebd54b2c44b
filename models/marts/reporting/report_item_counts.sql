{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The report's header and criteria counts: per agent and file, its Query IDs, its items by
-- status and by where their score came from (score_source), and those without a track.

select
    agent,
    source_file,
    file_fingerprint,
    count(distinct query_id) as query_count,
    count(case when track is null then 1 end) as untracked_count,
    {%- for status in ['ok', 'partial', 'error', 'empty'] %}
    count(case when status = '{{ status }}' then 1 end) as status_{{ status }}_count,
    {%- endfor %}
    {%- for source in ['llm', 'heuristic', 'gate', 'none'] %}
    count(case when score_source = '{{ source }}' then 1 end) as source_{{ source }}_count
    {{- "," if not loop.last }}
    {%- endfor %}
from {{ ref('int_scoring__item_scores') }}
where {{ new_file_versions() }}
group by agent, source_file, file_fingerprint
