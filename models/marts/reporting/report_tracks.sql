{{ config_incremental_by_file('int_scoring__item_scores') }}
-- The tracks of each file (seeds/agent_tracks.csv): per agent, file and track, its items
-- and the speed rubric they were scored on. The resume report's track list and groups.

select
    agent,
    source_file,
    file_fingerprint,
    track,
    count(*) as item_count,
    min(speed_rubric) as speed_rubric,
    count(distinct speed_rubric) > 1 as mixed_rubric
from {{ ref('int_scoring__item_scores') }}
where {{ new_file_versions() }} and track is not null
group by agent, source_file, file_fingerprint, track
