{{ config_incremental_by_file() }}
-- One row per export row of the URL agent: accuracy from the URL it returned
-- (url_agent__url_matches), intent = LLM 점수 else that accuracy, consistency on accuracy.

with results as (
    {{ agent_rows('url_agent') }}
),

scored as (
    select
        results.*,
        matches.status,
        matches.error_message,
        matches.accuracy_points as heuristic_score
    from results
    inner join {{ ref('url_agent__url_matches') }} as matches
        on matches.source_file = results.source_file
        and matches.record_no = results.record_no
    where {{ changed_files_only('matches.source_file') }}
)

{{ item_scores_from('scored', 'url_agent') }}
