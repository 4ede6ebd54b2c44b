-- Every check of every agent that scores a checklist (registered with check_results: true),
-- with the status of the item it belongs to.
{%- set agents = [] %}
{%- set parents = [] %}
{%- for agent, spec in var('agents').items() if spec.get('check_results') %}
    {%- do agents.append(agent) %}
    {%- do parents.append('int_' ~ agent ~ '__item_scores') %}
{%- endfor %}
{{ config_incremental_by_file(parents) }}

with check_results as (
    {%- for agent in agents %}
    select
        {{ sql_string(agent) }} as agent,
        check_results.source_file,
        check_results.file_fingerprint,
        check_results.record_no,
        check_results.item_id,
        check_results.check_no,
        check_results.check_kind,
        check_results.expected_value,
        check_results.passed,
        check_results.value_elsewhere_in_item,
        items.status as item_status
    from {{ ref('int_' ~ agent ~ '__check_results') }} as check_results
    inner join {{ ref('int_' ~ agent ~ '__item_scores') }} as items
        on items.source_file = check_results.source_file
        and items.record_no = check_results.record_no
    where {{ new_file_versions('check_results.source_file') }}
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
