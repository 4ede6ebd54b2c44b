{{ config(materialized='view') }}
-- The public item scores: every agent's rows (int_scoring__item_scores) under this mart's
-- contract, whose rows_hold test checks the row rules.

select
    {{ item_columns() | join(',\n    ') }}
from {{ ref('int_scoring__item_scores') }}
