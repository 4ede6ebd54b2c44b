"""Write the router agent's bundled sample exports (samples/router_eval_result_*.xlsx): two
runs of the orchestrator's routing test, shaped as the team's tool writes them (sheets
results, summary, confusion_matrix, run_config).

    python tools/make_router_samples.py      # needs openpyxl (the test extra)

The queries and both runs' answers are data: tools/router_sample_cases.csv. Run 2 changes
the model settings (thinking on, a longer system prompt); one call of it failed (503), and a
reviewer overrode two verdicts (성공 여부) by hand, so the export's verdict and the routing
disagree twice.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import openpyxl

HERE = Path(__file__).resolve().parent
CASES = HERE / "router_sample_cases.csv"
SAMPLES = HERE.parent / "samples"
HEADER = ["ID", "기대 에이전트", "질의", "응답값", "성공 여부", "응답속도(초)", "인풋 토큰",
          "아웃풋 토큰", "raw_json", "thoughts_token", "total_token", "attempts", "error"]
PROMPT = ("## Role\n'채용 에이전트' 제품의 사용을 돕는 AI 에이전트이다.\n\n## Instructions\n"
          "유저의 질문에 가장 적합한 Sub Worker를 골라라.")
RUNS = {
    "router_eval_result_261118_1520.xlsx": {
        "column": "run1", "thinking_budget": 0, "system_prompt": PROMPT,
        "input_tokens": 612, "thoughts": 0,
    },
    "router_eval_result_261125_1040.xlsx": {
        "column": "run2", "thinking_budget": -1,
        "system_prompt": PROMPT + "\n- 화면 이동 요청은 URL_WORKER_V3로 보낸다.",
        "input_tokens": 641, "thoughts": 38,
    },
}
FIXED = dt.datetime(2026, 11, 25, 10, 40)


def result_rows(cases: list[dict], run: dict) -> list[list]:
    rows = []
    for case in cases:
        column = run["column"]
        returned = case[column] or None
        error = case.get(f"{column}_error") or None
        verdict = case.get(f"{column}_verdict") or (
            "PASS" if returned == case["기대 에이전트"] else "FAIL")
        output_tokens = None if error else 11
        thoughts = None if error else run["thoughts"]
        rows.append([
            case["ID"], case["기대 에이전트"], case["질의"], returned, verdict,
            float(case[f"{column}_sec"] or 0) or None,
            None if error else run["input_tokens"], output_tokens,
            json.dumps({"subWorkerTask": {"worker": returned}}) if returned else "",
            thoughts,
            None if error else run["input_tokens"] + output_tokens + thoughts,
            3 if error else 1, error,
        ])
    return rows


def write_run(path: Path, cases: list[dict], run: dict) -> None:
    book = openpyxl.Workbook()
    book.properties.created = book.properties.modified = FIXED
    results = book.active
    results.title = "results"
    results.append(HEADER)
    rows = result_rows(cases, run)
    for row in rows:
        results.append(row)
    passed = sum(row[4] == "PASS" for row in rows)
    summary = book.create_sheet("summary")
    for line in (["metric", "value"], ["total", len(rows)], ["pass", passed],
                 ["fail", len(rows) - passed], ["accuracy", round(passed / len(rows), 6)]):
        summary.append(line)
    matrix = book.create_sheet("confusion_matrix")
    agents = sorted({row[1] for row in rows})
    matrix.append(["기대 에이전트", *agents])
    for expected in agents:
        matrix.append([expected, *(sum(r[1] == expected and r[3] == got for r in rows)
                                   for got in agents)])
    config = book.create_sheet("run_config")
    settings = {"model": "gemini-2.5-flash", "concurrency": 5, "temperature": 0.0,
                "top_p": 0.95, "top_k": 64, "max_output_tokens": None, "seed": None,
                "thinking_budget": run["thinking_budget"], "max_retries": 2,
                "retry_backoff_s": 0.8, "system_prompt": run["system_prompt"]}
    config.append(list(settings))
    config.append(list(settings.values()))
    book.save(path)


def main() -> None:
    with CASES.open(encoding="utf-8", newline="") as handle:
        cases = list(csv.DictReader(handle))
    for name, run in RUNS.items():
        write_run(SAMPLES / name, cases, run)
        print(f"{SAMPLES / name}: {len(cases)} queries")


if __name__ == "__main__":
    main()
