"""A resume export with the published report's structure (164 rows, Tracks 110/8/46) gives
the hand-computed figures of tests/fixtures/resume_agent_published_expected.json."""

from __future__ import annotations

import json

import pytest
from agent_scoring.reports import render_report
from support.markdown import table_with_header
from support.warehouse import FIXTURES, all_rows, one

FILE = "resume_agent_published.csv"
EXPECTED = json.loads((FIXTURES / "resume_agent_published_expected.json").read_text())


def round_track(con, round_label: str, track: str) -> dict:
    return one(
        con,
        "select * from round_scores where source_file = ? and round_label = ? and track = ?",
        [FILE, round_label, track],
    )


def band_distribution(con, round_label: str, tracks: list[str]) -> dict[str, int]:
    found = all_rows(
        con,
        """
        select speed_points::integer::varchar as band, count(*) as n from item_scores
        where source_file = ? and round_label = ? and track in (select unnest(?::varchar[]))
        group by 1
        """,
        [FILE, round_label, tracks],
    )
    return {r["band"]: r["n"] for r in found}


def test_track_counts_are_110_8_46(con):
    found = all_rows(
        con, "select track, count(*) as n from item_scores where source_file = ? group by 1 "
        "order by 1", [FILE])
    assert [(r["track"], r["n"]) for r in found] == [
        ("Track 1", 110), ("Track 2", 8), ("Track 3", 46)]


@pytest.mark.parametrize("expected", EXPECTED["by_round_track"],
                         ids=lambda e: f"{e['round']}-track{e['track']}")
def test_round_by_track_figures(con, expected):
    r = round_track(con, expected["round"], f"Track {expected['track']}")
    assert r["item_count"] == expected["items"]
    assert r["intent_score"] == pytest.approx(expected["intent"], abs=1e-6)
    assert r["accuracy_score"] == pytest.approx(expected["accuracy"], abs=1e-6)
    assert r["stability_score"] == pytest.approx(expected["stability"], abs=1e-6)
    assert r["speed_rubric"] == expected["speed_rubric"]
    assert r["mean_response_time_sec"] == pytest.approx(expected["mean_seconds"], abs=1e-6)
    assert r["speed_points"] == expected["mean_seconds_band"]
    assert r["item_speed_points_mean"] == pytest.approx(expected["item_band_mean"], abs=1e-6)
    tracks = [f"Track {expected['track']}"]
    assert band_distribution(con, expected["round"], tracks) == expected["band_distribution"]


def test_labels_follow_the_status_priority(con):
    for expected in EXPECTED["by_round_track"]:
        found = all_rows(
            con,
            "select status, count(*) as n from item_scores where source_file = ? and "
            "round_label = ? and track = ? group by 1",
            [FILE, expected["round"], f"Track {expected['track']}"],
        )
        labels = {k: v for k, v in expected["labels"].items() if v}
        assert {r["status"]: r["n"] for r in found} == labels


@pytest.mark.parametrize("expected", EXPECTED["by_round_track_group"],
                         ids=lambda e: f"{e['round']}-{e['track_group']}")
def test_track_groups_use_their_rubric(con, expected):
    group = "Track 1+2" if expected["track_group"] == "1+2" else "Track 3"
    r = round_track(con, expected["round"], group)
    assert r["item_count"] == expected["items"]
    assert r["speed_rubric"] == expected["speed_rubric"]
    assert r["mean_response_time_sec"] == pytest.approx(expected["mean_seconds"], abs=1e-6)
    assert r["item_speed_points_mean"] == pytest.approx(expected["item_band_mean"], abs=1e-6)
    tracks = ["Track 1", "Track 2"] if group == "Track 1+2" else ["Track 3"]
    assert band_distribution(con, expected["round"], tracks) == expected["band_distribution"]


def test_set_is_the_mean_of_rounds(con):
    s = one(con, "select * from set_scores where source_file = ? and track = 'all'", [FILE])
    assert s["intent_score"] == pytest.approx(EXPECTED["set"]["intent"], abs=1e-6)
    assert s["stability_score"] == pytest.approx(EXPECTED["set"]["stability"], abs=1e-6)
    for expected in EXPECTED["set"]["by_track"]:
        t = one(con, "select * from set_scores where source_file = ? and track = ?",
                [FILE, f"Track {expected['track']}"])
        assert t["intent_score"] == pytest.approx(expected["intent"], abs=1e-6)
        assert t["mean_response_time_sec"] == pytest.approx(expected["mean_seconds"], abs=1e-6)
        assert t["speed_points"] == expected["mean_seconds_band"]


def test_consistency_per_track_and_overall(con):
    expected = EXPECTED["consistency"]
    for track, e in [*((f"Track {k}", v) for k, v in expected["by_track"].items()),
                     ("all", expected["overall"])]:
        c = one(con, "select * from consistency where source_file = ? and track = ?",
                [FILE, track])
        assert (c["eligible_queries"], c["all_pass"], c["all_fail"], c["mismatch"]) == (
            e["eligible"], e["both_pass"], e["both_fail"], e["mismatch"])
        assert c["consistency_score"] == pytest.approx(e["score"], abs=1e-6)
        mismatching = all_rows(
            con, "select query_id from query_consistency where source_file = ? and track = ? "
            "and verdict = 'mismatch' order by 1", [FILE, track])
        assert [r["query_id"] for r in mismatching] == e["mismatching_query_ids"]


def test_report_renders_every_table_of_the_published_report(con):
    text = render_report(con, "resume_agent", FILE)
    assert "Track 분포: Track 1=110, Track 2=8, Track 3=46" in text
    consistency = table_with_header(text, "Track", "모두 pass")
    assert consistency[1:4] == [
        ["Track 1", "55", "0", "0", "0", "5.00"],
        ["Track 2", "3", "0", "1", "0", "3.75"],
        ["Track 3", "13", "3", "7", "0", "3.48"],
    ]
    intent = table_with_header(text, "구분", "Track 3")
    assert intent[1][:4] == ["1/1", "4.9818", "3.7500", "3.2609"]
    assert intent[2][:4] == ["2/1", "4.9818", "4.7500", "3.5217"]
    speed = table_with_header(text, "구분", "Track 1(초)")
    assert speed[1][1:7] == ["14.413", "1.7636 (2)", "10.930", "2.7500 (2)", "20.704",
                             "3.5652 (4)"]
    assert speed[3][1] == "14.258"
    combined = table_with_header(text, "구분", "평균 초(sec)")
    assert combined[1][:3] == ["1/1 (Track 1+2, 59개)", "14.177", "1.8305"]
    stability = table_with_header(text, "Run", "세트 전체")
    assert stability[1:] == [
        ["1/1", "5.00", "3.75", "3.48", "4.51"],
        ["2/1", "5.00", "5.00", "3.70", "4.63"],
        ["세트", "5.00", "4.38", "3.59", "4.57"],
    ]
    assert "Track 1 + Track 2 (단일 루브릭)" in text and "Track 3 (복수 루브릭)" in text
    replay = table_with_header(text, "Query ID", "Track")
    assert [row[0] for row in replay[1:]] == EXPECTED["consistency"]["overall"][
        "mismatching_query_ids"]
    phrases = table_with_header(text, "문구")
    assert phrases[1][0] == "선택해 주세요"
