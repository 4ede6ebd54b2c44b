{{ config(materialized='view') }}
-- Every registered agent's item scores in one relation (var agents lists them).
{% for agent in var('agents') %}
select * from {{ ref('int_' ~ agent ~ '__item_scores') }}
{{ "union all by name" if not loop.last }}
{% endfor %}
