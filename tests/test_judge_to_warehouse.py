"""A report written by `score-report judge` builds through the RAG marts unchanged and
renders, labelled as a demo when the offline keyword judge wrote it."""

from __future__ import annotations

from agent_scoring.cli import main
from click.testing import CliRunner
from support.warehouse import SAMPLES, build, copy_inputs, one

DATASET = SAMPLES / "qa_dataset_sample.json"
ANSWERS = SAMPLES / "rag_answers_sample.jsonl"


def test_keyword_judge_report_flows_into_the_marts_and_the_report(tmp_path):
    inputs = copy_inputs([DATASET], tmp_path / "input")
    judged = CliRunner().invoke(main, [
        "judge", str(DATASET), str(ANSWERS), "--provider", "keyword",
        "--out-dir", str(inputs), "--cache", str(tmp_path / "cache.duckdb"),
    ])
    assert judged.exit_code == 0, judged.output
    [report] = list(inputs.glob("evaluation_report_*.json"))

    warehouse = build(inputs, tmp_path, select=["tag:rag"])
    with warehouse.connect() as con:
        run = one(con, "select * from rag_run_scores where report_file = ?", [report.name])
        assert run["questions"] == 12
        assert run["is_demo_judge"] is True
        assert run["judge_model"] == "offline-keyword"

    out = tmp_path / "reports"
    rendered = CliRunner().invoke(main, ["--db", str(warehouse.db), "--agent", "rag",
                                         "--out", str(out)])
    assert rendered.exit_code == 0, rendered.output
    text = (out / f"{report.stem}_score_summary.md").read_text(encoding="utf-8")
    assert "**데모 판정**" in text
    assert "offline-keyword" in text
