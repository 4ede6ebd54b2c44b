-- The speed rubrics in force for this build (var('speed_rubrics')), so reports and ad-hoc
-- queries show the bands that produced the scores.
{%- set rubrics = var('speed_rubrics') %}
{% for name, bounds in rubrics.items() %}
{%- set outer = loop %}
{%- for bound in bounds %}
select
    '{{ name }}' as speed_rubric,
    {{ 5 - loop.index0 }} as points,
    {{ bounds[loop.index0 - 1] if not loop.first else 'null' }}::double as lower_bound_exclusive,
    {{ bound }}::double as upper_bound_inclusive
union all
{% endfor %}
select '{{ name }}', 0, {{ bounds[-1] }}::double, null::double
{{ "union all" if not outer.last }}
{% endfor %}
