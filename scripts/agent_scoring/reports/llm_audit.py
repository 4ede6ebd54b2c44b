"""The report's "LLM 채점 검증": how far the platform's LLM scores agree with the rules
(marts score_agreement and score_pairs), and each item where they are two points apart or
more, with what the rules saw."""

from __future__ import annotations

from agent_scoring.reports import (
    IN_FILES,
    RUBRIC_NAMES,
    ByFile,
    Connection,
    rows_by_file,
    tables,
)

METRIC_LABELS = {
    "intent": "의도 충족", "accuracy": "정확성", "consistency": "일관성",
    "speed": "응답 속도", "stability": "안정성",
}
# rules that need no judgement: where the LLM's score differs, the LLM is wrong
NO_JUDGEMENT = ("speed", "stability")
SHOWN = 30


def agreement(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    return rows_by_file(
        con,
        f"""
        select source_file, metric, item_count, exact_agree, within_one, mean_abs_diff,
               llm_higher, llm_lower, far_apart, rule_unscored
        from score_agreement
        where agent = ? and source_file {IN_FILES}
        order by metric_order
        """,
        [agent, source_files],
    )


def far_apart(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    """Per file: the first SHOWN pairs two points apart or more, with the item's facts."""
    return rows_by_file(
        con,
        f"""
        with pairs as (
            select *, count(*) over (partition by source_file) as far_apart_total
            from score_pairs
            where agent = ? and source_file {IN_FILES} and abs(score_diff) >= 2
            qualify row_number() over (
                partition by source_file order by metric_order, record_no) <= ?
        )
        select p.source_file, p.metric, p.query_id, p.round_label, p.llm_score, p.rule_score,
               p.far_apart_total, i.status, i.error_message, i.check_passed, i.check_count,
               i.response_time_sec, i.speed_rubric,
               (select string_agg(c.check_kind || ' ' || c.expected_value, ', '
                                  order by c.check_no)
                from check_results as c
                where c.agent = p.agent and c.source_file = p.source_file
                    and c.record_no = p.record_no and not c.passed) as failed_checks,
               (select string_agg(r.round_label || '=' || coalesce(
                           r.intent_score::integer::varchar, '-') || ' (' || r.status || ')',
                           ', ' order by r.round_room, r.round_repeat)
                from item_scores as r
                where p.metric = 'consistency' and r.agent = p.agent
                    and r.source_file = p.source_file and r.query_id = p.query_id)
                   as round_scores
        from pairs as p
        left join item_scores as i
            on i.agent = p.agent and i.source_file = p.source_file
            and i.record_no = p.record_no
        order by p.metric_order, p.record_no
        """,
        [agent, source_files, SHOWN],
    )


def rule_basis(pair: dict) -> str:
    """What the rules saw on the item, in a few words."""
    status, metric = pair["status"], pair["metric"]
    failed = f"{status}: {pair['error_message'] or '응답 없음'}"
    if metric == "consistency":
        return f"회차별 {pair['round_scores']}"
    if metric == "speed":
        rubric = RUBRIC_NAMES.get(pair["speed_rubric"], pair["speed_rubric"])
        return f"responseTimeSec {pair['response_time_sec']:.3f}초: {rubric} 루브릭 구간"
    if status in ("error", "empty"):
        return failed
    if metric == "stability":
        return f"상태 {status}: 오류·빈 응답 아님"
    if pair["check_count"]:
        text = f"체크 {pair['check_passed']}/{pair['check_count']} 통과"
        return f"{text}; 실패: {pair['failed_checks']}" if pair["failed_checks"] else text
    return f"상태 {status}"


def audits(con: Connection, agent: str, source_files: list[str]) -> dict[str, dict]:
    """Per file: the agreement per metric and the pairs far apart, ready to print."""
    if "score_agreement" not in tables(con):
        return {f: {"agreement": [], "far_apart": [], "hidden": 0} for f in source_files}
    figures, pairs = agreement(con, agent, source_files), far_apart(con, agent, source_files)
    result = {}
    for f in source_files:
        shown = [
            p | {"label": METRIC_LABELS[p["metric"]], "basis": rule_basis(p),
                 "llm_error": p["metric"] in NO_JUDGEMENT}
            for p in pairs[f]
        ]
        total = shown[0]["far_apart_total"] if shown else 0
        result[f] = {
            "agreement": [r | {"label": METRIC_LABELS[r["metric"]]} for r in figures[f]],
            "far_apart": shown,
            "hidden": total - len(shown),
        }
    return result
