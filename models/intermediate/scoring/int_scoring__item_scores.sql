{{ config(materialized='view') }}
-- Every registered agent's item scores (var agents lists them): a view of each agent's
-- int_<agent>__item_scores, the one parent of every scoring model and mart (item_scores
-- is its public face). As a table it was a second copy of every item (1M rows: 1.9 s of a
-- clean build).


-- by name: an agent's model may order its columns differently
{%- for agent in var('agents') %}
select
    {{ item_columns() | join(',\n    ') }}
from {{ ref('int_' ~ agent ~ '__item_scores') }}
{{ "union all" if not loop.last }}
{%- endfor %}
