{{ config(materialized='view') }}
-- The report's 데이터 품질 section, its line on round sizes: the items of each round of a file
-- (int_scoring__round_figures, track 'all'), in round order, with whether the rounds of the
-- file are equal.

with rounds as (
    select
        agent,
        source_file,
        round_label,
        round_room,
        round_repeat,
        item_count
    from {{ ref('int_scoring__round_figures') }}
    where track = 'all'
),

sized as (
    select
        agent,
        source_file,
        round_label,
        row_number() over (
            partition by source_file order by round_room, round_repeat, round_label
        ) as round_no,
        item_count,
        count(*) over (partition by source_file) as round_count,
        min(item_count) over (partition by source_file) as smallest_round,
        max(item_count) over (partition by source_file) as largest_round
    from rounds
)

select
    agent,
    source_file,
    round_no,
    round_label,
    item_count,
    round_count,
    smallest_round <> largest_round as rounds_unequal,
    case when smallest_round = largest_round then item_count end as round_size
from sized
