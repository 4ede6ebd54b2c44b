{{ config(materialized='view') }}
-- Every agent's item scores in one relation; var('agents') lists the agents to union.
{% for agent in var('agents') %}
select * from {{ ref('int_' ~ agent ~ '__item_scores') }}
{{ "union all by name" if not loop.last }}
{% endfor %}
