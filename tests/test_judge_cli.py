"""`score-report judge` end to end with the offline judge, and its one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_scoring.cli import main
from agent_scoring.judge.inputs import load_answers, load_dataset
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
REAL = Path(__file__).resolve().parents[2] / "shared" / "real-data"
FIXTURES = Path(__file__).parent / "fixtures" / "judge"
DATASET = FIXTURES / "qa_dataset_mini.json"
ANSWERS = FIXTURES / "answers_mini.jsonl"
SAMPLE_DATASET = REPO / "samples" / "qa_dataset_sample.json"
SAMPLE_ANSWERS = REPO / "samples" / "rag_answers_sample.jsonl"


def invoke(args: list[str], env: dict[str, str] | None = None):
    # Judge settings from the developer's shell must not leak into the tests.
    clean = {
        "JUDGE_BASE_URL": None,
        "JUDGE_API_KEY": None,
        "JUDGE_MODEL": None,
        "JUDGE_CACHE": None,
        **(env or {}),
    }
    return CliRunner().invoke(main, ["judge", *args], env=clean)


def test_keyword_provider_writes_a_demo_report_into_the_input_dir(tmp_path):
    result = invoke(
        [str(DATASET), str(ANSWERS), "--provider", "keyword"],
        {"AGENT_SCORING_INPUT_DIR": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    [written] = tmp_path.glob("evaluation_report_mini_*.json")
    report = json.loads(written.read_text(encoding="utf-8"))
    assert report["judge_provider"] == "keyword" and report["judge_model"] == "offline-keyword"
    assert report["demo"] is True
    assert report["total_questions"] == 5 and len(report["results"]) == 5
    assert f"{written}: {report['passed_questions']}/5 passed" in result.stdout
    assert "demo" in result.stdout
    assert "judge: 5 questions: 4 judged, 0 cached" in result.stderr
    assert not (tmp_path / ".judge_cache.duckdb").exists()


def test_out_dir_option_wins_over_the_input_dir_variable(tmp_path):
    result = invoke(
        [str(DATASET), str(ANSWERS), "--provider", "keyword", "--out-dir", str(tmp_path / "out")],
        {"AGENT_SCORING_INPUT_DIR": str(tmp_path / "in")},
    )
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "out").glob("evaluation_report_*.json"))) == 1
    assert not (tmp_path / "in").exists()


def test_the_default_provider_without_an_endpoint_fails_in_one_line(tmp_path):
    result = invoke([str(DATASET), str(ANSWERS)], {"AGENT_SCORING_INPUT_DIR": str(tmp_path)})
    assert result.exit_code == 2
    assert "no judge endpoint: set JUDGE_BASE_URL" in result.stderr
    assert "--provider keyword" in result.stderr
    assert not list(tmp_path.iterdir())


def test_a_remote_endpoint_without_a_key_fails_in_one_line(tmp_path):
    result = invoke(
        [str(DATASET), str(ANSWERS)],
        {
            "JUDGE_BASE_URL": "https://clovastudio.stream.ntruss.com/v1/openai",
            "AGENT_SCORING_INPUT_DIR": str(tmp_path),
        },
    )
    assert result.exit_code == 2
    assert "no judge API key: set JUDGE_API_KEY" in result.stderr


def test_a_broken_answers_line_is_named_by_file_and_line(tmp_path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        '{"question_id": "t_concept_001", "answer": "x"}\n{broken\n', encoding="utf-8"
    )
    result = invoke(
        [str(DATASET), str(answers), "--provider", "keyword"],
        {"AGENT_SCORING_INPUT_DIR": str(tmp_path)},
    )
    assert result.exit_code == 1
    assert f"{answers}: line 2 is not valid JSON" in result.stderr
    assert "Traceback" not in result.output


def test_a_repeated_question_id_is_an_error(tmp_path):
    answers = tmp_path / "answers.jsonl"
    line = '{"question_id": "t_concept_001", "answer": "x"}\n'
    answers.write_text(line * 2, encoding="utf-8")
    result = invoke([str(DATASET), str(answers), "--provider", "keyword"])
    assert "line 2: question_id t_concept_001 already answered on line 1" in result.stderr


def test_answers_for_unknown_questions_are_reported_not_dropped_silently(tmp_path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        ANSWERS.read_text(encoding="utf-8") + '{"question_id": "zz_999", "answer": "x"}\n',
        encoding="utf-8",
    )
    result = invoke(
        [str(DATASET), str(answers), "--provider", "keyword"],
        {"AGENT_SCORING_INPUT_DIR": str(tmp_path)},
    )
    assert result.exit_code == 0
    assert "1 answer(s) for questions not in qa_dataset_mini.json ignored: zz_999" in (
        result.stderr
    )


def test_the_cache_refuses_the_dbt_warehouse_file(tmp_path):
    warehouse = tmp_path / "agent_scoring.duckdb"
    result = invoke(
        [str(DATASET), str(ANSWERS), "--cache", str(warehouse)],
        {
            "JUDGE_BASE_URL": "http://127.0.0.1:9/v1",
            "AGENT_SCORING_DB": str(warehouse),
            "AGENT_SCORING_INPUT_DIR": str(tmp_path),
        },
    )
    assert result.exit_code == 1
    assert "that is the dbt warehouse file" in result.stderr
    assert not warehouse.exists()


def test_outside_the_project_the_judge_names_the_rule_it_cannot_read(tmp_path):
    result = invoke(
        [str(DATASET), str(ANSWERS), "--provider", "keyword", "--project", str(tmp_path)],
        {"AGENT_SCORING_INPUT_DIR": str(tmp_path / "in")},
    )
    assert result.exit_code == 1
    assert f"{tmp_path / 'seeds' / 'rag_scoring_rules.csv'}: cannot read the scoring rule" in (
        result.stderr)
    assert "--project" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "in").exists()


def test_the_bundled_sample_answers_load():
    answers = load_answers(SAMPLE_ANSWERS)
    assert len(answers) >= 12
    assert {a.question_id.split("_")[0] for a in answers.values()} == {"in", "ood", "edge"}


@pytest.mark.skipif(not SAMPLE_DATASET.exists(), reason="bundled sample dataset not present")
def test_the_bundled_sample_answers_every_question_of_the_sample_dataset():
    dataset_ids = {q["id"] for q in load_dataset(SAMPLE_DATASET).questions}
    assert set(load_answers(SAMPLE_ANSWERS)) == dataset_ids


@pytest.mark.skipif(not SAMPLE_DATASET.exists(), reason="bundled sample dataset not present")
def test_the_offline_demo_runs_on_the_bundled_sample(tmp_path):
    result = invoke(
        [
            str(SAMPLE_DATASET),
            str(SAMPLE_ANSWERS),
            "--provider",
            "keyword",
            "--out-dir",
            str(tmp_path),
        ]
    )
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.glob("evaluation_report_*.json"))) == 1
