{{ config(materialized='view') }}
-- Every check of every agent that scores a checklist (registered with check_results: true),
-- with the status of the item it belongs to. A view: each agent's check results are a table
-- already, each check with its row's status (3.3M checks at 1M rows: no second copy).
{%- set agents = [] %}
{%- for agent, spec in var('agents').items() if spec.get('check_results') %}
    {%- do agents.append(agent) %}
{%- endfor %}
{%- set check_columns = [
    'source_file', 'file_fingerprint', 'record_no', 'item_id', 'check_no', 'check_kind',
    'expected_value', 'passed', 'value_elsewhere_in_item', 'item_status',
] %}

with check_results as (
    {%- for agent in agents %}
    -- by name: an agent's model may order its columns differently
    select {{ sql_string(agent) }} as agent, {{ check_columns | join(', ') }}
    from {{ ref('int_' ~ agent ~ '__check_results') }}
    union all
    {%- endfor %}
    select
        null::string as agent,
        null::string as source_file,
        null::string as file_fingerprint,
        null::bigint as record_no,
        null::string as item_id,
        null::bigint as check_no,
        null::string as check_kind,
        null::string as expected_value,
        null::boolean as passed,
        null::boolean as value_elsewhere_in_item,
        null::string as item_status
    where false
)

select
    agent,
    source_file,
    file_fingerprint,
    record_no,
    item_id,
    check_no,
    check_kind,
    expected_value,
    passed,
    value_elsewhere_in_item,
    item_status
from check_results
