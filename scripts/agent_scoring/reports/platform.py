"""The report's "플랫폼 지표" (the headline figures the team's platform reports, in its terms:
marts platform_summary and category_failures) and "운영 체크리스트" (mart ops_checklist)."""

from __future__ import annotations

from agent_scoring.reports import ByFile, Connection, select_by_file, tables

CLASS_NAMES = {"single": "SINGLE", "multi": "MULTI"}
SUMMARY = ("item_count, total_score, total_scored_count, consistency_given_count, "
           "fail_total_below, fail_count, fail_rate, error_rate, empty_rate, p50_single_sec, "
           "p90_single_sec, timed_single_count, p50_multi_sec, p90_multi_sec, "
           "timed_multi_count, unclassified_count, untimed_count, total_score_ci_low, "
           "total_score_ci_high")


def platform_figures(con: Connection, agent: str, source_files: list[str]) -> dict[str, dict]:
    """Per file: the summary row (None before the marts exist), its latency per speed class
    and its categories."""
    if "platform_summary" not in tables(con):
        return {f: {"summary": None, "latency": [], "categories": []} for f in source_files}
    summaries = select_by_file(con, "platform_summary", SUMMARY, source_files, agent=agent)
    categories = select_by_file(
        con, "category_failures", "category, item_count, error_count, empty_count, "
        "fail_count, total_score, top_failure_pattern", source_files, agent=agent,
        order="fail_count + error_count + empty_count desc, category")
    result = {}
    for f in source_files:
        summary = summaries[f][0] if summaries[f] else None
        latency = [
            {"name": name, "p50": summary[f"p50_{rubric}_sec"],
             "p90": summary[f"p90_{rubric}_sec"], "timed": summary[f"timed_{rubric}_count"]}
            for rubric, name in CLASS_NAMES.items()
            if summary and summary[f"timed_{rubric}_count"]
        ]
        result[f] = {"summary": summary, "latency": latency, "categories": categories[f]}
    return result


def checklists(con: Connection, agent: str, source_files: list[str]) -> ByFile:
    """Per file: the lines of the seeds' operational checklists (mart ops_checklist)."""
    if "ops_checklist" not in tables(con):
        return {f: [] for f in source_files}
    return select_by_file(con, "ops_checklist", "line_no, seed_ref, check_text, figure, passed, "
                          "hint", source_files, agent=agent, order="line_no")
