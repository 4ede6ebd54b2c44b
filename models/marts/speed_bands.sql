-- The speed rubrics in force for this build (var('speed_rubrics')), so reports and ad-hoc
-- queries show the bands that produced the scores, and name them from the same data.
{%- set rubrics = var('speed_rubrics') %}
{% for name, bounds in rubrics.items() %}
{%- set outer = loop %}
{%- set rules = [] %}
{%- for bound in bounds %}
{%- do rules.append(('<=%g' | format(bound)) if loop.first
    else ('%g~%g' | format(bounds[loop.index0 - 1], bound))) %}
{%- endfor %}
{%- set rule_text = [] %}
{%- for rule in rules %}{% do rule_text.append(rule ~ ':' ~ (5 - loop.index0)) %}{% endfor %}
{%- do rule_text.append('>%g:0' | format(bounds[-1])) %}
{%- for bound in bounds %}
select
    '{{ name }}' as speed_rubric,
    {{ 5 - loop.index0 }} as points,
    {{ bounds[loop.index0 - 1] if not loop.first else 'null' }}::double as lower_bound_exclusive,
    {{ bound }}::double as upper_bound_inclusive,
    '{{ 5 - loop.index0 }}점 {{ ('≤%g' | format(bound)) if loop.first
        else ('%g~%g' | format(bounds[loop.index0 - 1], bound)) }}초' as band_label,
    '{{ rule_text | join(", ") }}' as rubric_text,
    '{{ var('speed_rubric_names')[name] }}' as rubric_name
union all
{% endfor %}
select '{{ name }}', 0, {{ bounds[-1] }}::double, null::double,
    '0점 >{{ '%g' | format(bounds[-1]) }}초', '{{ rule_text | join(", ") }}',
    '{{ var('speed_rubric_names')[name] }}'
{{ "union all" if not outer.last }}
{% endfor %}
