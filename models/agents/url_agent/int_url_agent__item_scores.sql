{{ config_incremental_by_file('stg_exports__files') }}
-- depends_on: {{ ref('stg_exports__files') }}
-- One row per export row of the URL agent in the item_scores contract, with the URL(s) it
-- returned, what 기대결과 expected, how they matched and why an item failed (the team's
-- url-agent skill; url_agent__url_matches shows these). Accuracy is that match, intent LLM
-- 점수 else that accuracy, consistency on accuracy.
--   expected dataKey: `dataKey=XYZ` in 기대결과; actual: the dataKey query parameter of
--   every dataUIList[*].uiValue.buttonUrl. 5 when the expected key is among them; 3 when a
--   button has the expected URL's path but another dataKey (0 with settings.strict_accuracy);
--   else 0. With no dataKey expected, the paths are compared ({planId} matches any number;
--   host, trailing slash and query ignored): 5 or 0.
{%- set strict = agent_spec('url_agent').get('settings', {}).get('strict_accuracy', false) %}

with results as (
    {{ agent_rows('url_agent', ref('int_exports__results')) }}
),

expected_urls as (
    select
        source_file,
        record_no,
        nullif({{ regex_extract('expected_result', "'dataKey=([A-Z0-9_]+)'", 1) }}, '') as expected_data_key,
        nullif({{ regex_extract(
            'expected_result',
            "'(?:^|[\\s\"''“”‘’(\\[<:=])((?:https?://|/)[A-Za-z0-9_\\-./{}%~:?=&#]*)'",
            1
        ) }}, '') as expected_url
    from results
),

expected as (
    -- the expected page once per row: its path and the pattern a button's path must match
    select
        *,
        case when expected_url is not null then {{ url_path('expected_url') }} end as expected_path,
        {{ path_pattern(url_path('expected_url')) }} as expected_path_pattern
    from expected_urls
),

buttons as (
    select source_file, record_no, {{ json_text_at('ui_value', '$.buttonUrl') }} as button_url
    from (
        select source_file, record_no, {{ unnest_list('ui_values', 'ui_value') }}
        from results
        where {{ list_size('ui_values') }} > 0
    )
),

button_parts as (
    select
        source_file,
        record_no,
        button_url,
        {{ url_path('button_url') }} as button_path,
        {{ url_query_values('button_url', 'dataKey') }} as button_data_keys
    from buttons
    where nullif(trim(button_url), '') is not null
),

compared as (
    select
        expected.source_file,
        expected.record_no,
        expected.expected_data_key,
        expected.expected_path,
        {{ list_in_order("button_parts.button_url", "button_parts.button_url",
            filter='button_parts.button_url is not null') }} as button_urls,
        {{ distinct_items_sorted('button_parts.button_data_keys',
            filter='button_parts.button_url is not null') }} as button_data_keys,
        bool_or({{ list_has('button_parts.button_data_keys', 'expected.expected_data_key') }})
            as data_key_found,
        bool_or({{ regex_full_match('button_parts.button_path', 'expected.expected_path_pattern') }})
            as path_found,
        bool_or(
            {{ regex_full_match('button_parts.button_path', 'expected.expected_path_pattern') }}
            and {{ list_size('button_parts.button_data_keys') }} > 0
        ) as path_found_with_a_data_key
    from expected
    left join button_parts
        on button_parts.source_file = expected.source_file
        and button_parts.record_no = expected.record_no
    group by all
),

labelled as (
    select
        results.*,
        {{ failure_message('results') }} as error_message,
        {{ status_label(
            error_when=failure_message('results') ~ ' is not null',
            empty_when="coalesce(trim(results.assistant_message), '') = ''"
                ~ " and coalesce(" ~ list_size('results.ui_values') ~ ", 0) = 0",
            no_checks_when='compared.expected_data_key is null and compared.expected_path is null'
        ) }} as status,
        compared.expected_data_key,
        compared.expected_path,
        coalesce(compared.button_urls, {{ sql_list([]) }}) as button_urls,
        coalesce(compared.button_data_keys, {{ sql_list([]) }}) as button_data_keys,
        coalesce(compared.data_key_found, false) as data_key_found,
        coalesce(compared.path_found, false) as path_found,
        coalesce(compared.path_found_with_a_data_key, false) as path_found_with_a_data_key
    from results
    inner join compared
        on compared.source_file = results.source_file
        and compared.record_no = results.record_no
),

matched as (
    select
        *,
        case
            when status in ('error', 'empty') then 'error'
            when status = 'no_checks' then 'no_expectation'
            when expected_data_key is not null and data_key_found then 'data_key'
            when expected_data_key is null and path_found then 'path'
            when {{ list_size('button_urls') }} = 0 then 'no_url'
            when expected_data_key is not null and path_found_with_a_data_key then 'path_only'
            else 'mismatch'
        end as match_kind
    from labelled
),

scored as (
    select
        *,
        case match_kind
            when 'data_key' then 5
            when 'path' then 5
            when 'path_only' then {{ 0 if strict else 3 }}
            when 'no_expectation' then null
            else 0
        end as accuracy_points,
        case
            when match_kind in ('data_key', 'path') then null
            when match_kind = 'no_expectation' then null
            when {{ list_size('button_urls') }} = 0 then 'URL 미반환'
            else 'URL 불일치'
        end as failure_reason
    from matched
),

judged as (
    select *, accuracy_points as heuristic_score from scored
)

{{ item_scores_from('judged', 'url_agent', extra=[
    'expected_data_key', 'expected_path', 'button_urls', 'button_data_keys', 'match_kind',
    'accuracy_points', 'failure_reason',
]) }}
