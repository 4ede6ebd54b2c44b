-- The checklist pass-ratio bands in force for this build (var('pass_ratio_bands'), seed
-- 001 §2-3), so reports and ad-hoc queries show the bands that produced the rule scores and
-- write the rule from the same data: `1.00:5, 0.75~<1:4, …, 0~<0.25:1, 0:0`.
{%- set bands = var('pass_ratio_bands') %}
{%- set texts = [] %}
{%- for band in bands %}
{%- if loop.first %}
{%- do texts.append('%.2f' | format(band['from'])) %}
{%- else %}
{%- do texts.append(('%g~<%g' | format(band['from'], bands[loop.index0 - 1]['from']))) %}
{%- endif %}
{%- endfor %}
{%- set rule = [] %}
{%- for band in bands %}{% do rule.append(texts[loop.index0] ~ ':' ~ band['points']) %}{% endfor %}
{%- do rule.append((('%g' if bands[-1].get('above') else '<%g') | format(bands[-1]['from'])) ~ ':0') %}
{% for band in bands %}
select
    {{ band['points'] }} as points,
    cast({{ band['from'] }} as double) as lower_bound,
    {{ 'false' if band.get('above') else 'true' }} as lower_bound_inclusive,
    '{{ texts[loop.index0] }}' as band_text,
    '{{ rule | join(", ") }}' as rule_text
union all
{% endfor %}
select
    0,
    cast(null as double),
    cast(null as boolean),
    '{{ rule[-1].split(":")[0] }}',
    '{{ rule | join(", ") }}'
