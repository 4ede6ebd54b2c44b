"""Write the bad-input corpus: one small export per kind of damage, and what must happen to it.

    python tests/corpus/make_corpus.py          # rewrites tests/corpus/files/

Every file is deterministic (the test suite regenerates the corpus and compares bytes). The
10 MB cell is not committed: ``huge_cell_file()`` writes it at test time. Outcomes, asserted
in ``tests/test_bad_input_corpus.py`` (``files/main``) and
``tests/test_refused_files.py`` (``files/missing_column``):

==============================  ============================================================
file (plan_agent_… unless said)  outcome
==============================  ============================================================
cp949                           transcoded to UTF-8, every row scored, Korean text intact
cp949_corrupt                   refused: rejected_files undecodable (invalid CP949 byte)
utf8_no_bom                     read in place, scored
utf16 / utf16le_no_bom          transcoded, scored
mixed_newlines                  CRLF and LF record endings: read via a normalized copy, scored
broken_quote                    the record with "a "quoted" word" rejected (csv_bad_quote, its
                                line), the others scored
unterminated_quote              a quote opened mid-file and never closed: the csv module and
                                DuckDB disagree on the record count -> rejected_files
                                ambiguous_records (no half-read file)
cut_off                         file ends inside the last record's quote: that record rejected
                                (csv_bad_quote), the others scored
ragged_rows                     a record with a field too many / too few: rejected
mixed_encoding                  UTF-8 file with one CP949 row: that row rejected
                                (csv_invalid_encoding), never mis-decoded
extra_columns                   unknown columns ignored (listed in input_files), scored
reordered_columns               matched by name, same scores as in header order
header_spaces                   names trimmed, scored
empty / bom_only                rejected_files empty_file (0 bytes / a BOM and blank lines)
header_only                     rejected_files no_data_rows
duplicate_header                rejected_files duplicate_column
not_text                        rejected_files undecodable
duplicate_item_ids              later records repeating an Item ID rejected, first scored
                                (a record another rule rejected is no first)
missing_keys                    no Item ID / no Query ID: rejected
nan_blank                       rows of only ''/spaces/nan: rejected empty_row; a row with its
                                keys but nan elsewhere: scored as error "Raw JSON missing"
bad_round_label                 1회차, 1-1, round 2, empty: rejected; " 2/1 " accepted
one_round_query                 Q-03 only in 1/1: scored, not eligible for consistency, listed
                                by the report's data-quality section
truncated_json                  Raw JSON cut at 32,767 chars: error "Raw JSON unparsable
                                (truncated at 32,767 chars?)"
raw_json_shapes                 null / array / number / string / boolean / garbage: error with
                                the shape named
json_expected_odd_keys          기대결과 JSON with keys that are no JSON path (", ., [, ''):
                                ignored, the two real checks scored (found by hypothesis)
ui_value_string                 uiValue as a JSON string: parsed, checks pass as for an object
response_time                   "7.5" accepted; negative, NaN, Infinity, "abc" -> missing time
nasty_text                      |, newlines, HTML/script, markdown in 질의/오류/기대결과/Query ID:
                                scored, report tables keep their shape
resume_agent_bad_rows           resume rows: bad round and duplicate rejected, missing Track
                                scored as unknown track, nan Raw JSON with 응답 -> fallback
huge_cell (test time)           a 10 MB assistantMessage: scored, keyword at its end found
missing_column/…missing_raw_json  refused (rejected_files missing_column); the rest scored
==============================  ============================================================
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"

PLAN_HEADER = [
    "Run ID", "Item ID", "Ordinal", "Query ID", "질의", "기대결과", "카테고리", "방/반복",
    "실행시각", "응답", "오류", "Logic 결과", "Logic 사유", "LLM 상태", "LLM 모델", "LLM 점수",
    "LLM 코멘트", "Raw JSON",
]
RESUME_HEADER = [*PLAN_HEADER[:4], "Track", *PLAN_HEADER[4:]]
ROUNDS = ["1/1", "2/1"]
KEYWORD = "채용공고"
NASTY = (
    "a | b || c\\|d\nline2\r\nline3 <script>alert('x')</script> <b>bold</b> **star** _u_ "
    "[link](http://example.com) ![img](x.png) `code` ~~gone~~ &amp; &lt; # head > quote "
    "1. item - dash --- <!-- c -->"
)


def expected_result(keyword: str = KEYWORD) -> str:
    return (
        "평가 요소 3가지 ->:\n"
        f'1) assistantMessage에 "{keyword}"과 관련된 내용이 언급되어 있는가\n'
        '2) dataUIList 내 formType 값이 "SELECT"인 항목이 존재하는가\n'
        "3) 해당 항목의 multiSelectAllowYn 값이 true인가"
    )


def ui_item(**overrides) -> dict:
    value = {"formType": "SELECT", "multiSelectAllowYn": True, "value": {"dataKey": "site"}}
    value.update(overrides)
    return {"uiValue": value}


def payload(
    message: str | None = f"{KEYWORD} 사이트를 골라 주세요.",
    ui: list | None = None,
    seconds: object = 4.2,
    error: str = "",
) -> dict:
    return {
        "assistantMessage": message,
        "dataUIList": [ui_item()] if ui is None else ui,
        "responseTimeSec": seconds,
        "error": error,
        "executionProcesses": [{"step": 1}],
        "worker": ["planner"],
    }


def raw(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


def plan_row(query_no: int, round_label: str, **cells: str) -> dict[str, str]:
    """A plan row that scores 5 (all three checks pass) unless cells say otherwise."""
    body = payload()
    row = {
        "Run ID": "run-" + round_label.replace("/", "-"),
        "Item ID": f"item-{query_no:02d}-{round_label.replace('/', '-')}",
        "Ordinal": str(query_no),
        "Query ID": f"Q-{query_no:02d}",
        "질의": f"{KEYWORD} {query_no}번 사이트를 추천해 줘",
        "기대결과": expected_result(),
        "카테고리": "채용",
        "방/반복": round_label,
        "실행시각": "2026-02-24 10:00:00",
        "응답": body["assistantMessage"],
        "오류": "",
        "Logic 결과": "",
        "Logic 사유": "",
        "LLM 상태": "",
        "LLM 모델": "",
        "LLM 점수": "",
        "LLM 코멘트": "",
        "Raw JSON": raw(body),
    }
    row.update(cells)
    return row


def base_rows(queries: int = 2) -> list[dict[str, str]]:
    return [plan_row(q, r) for r in ROUNDS for q in range(1, queries + 1)]


def csv_text(rows: list[dict[str, str]], header: list[str] = PLAN_HEADER,
             terminator: str = "\r\n") -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=terminator)
    writer.writerow(header)
    for row in rows:
        writer.writerow([row.get(name.strip(), "") for name in header])
    return out.getvalue()


def write(path: Path, text: str | bytes, encoding: str = "utf-8-sig") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text if isinstance(text, bytes) else text.encode(encoding)
    path.write_bytes(data)


def plan_cases() -> dict[str, str | bytes | tuple[str, str]]:
    """file stem -> text (UTF-8 with BOM, like the real exports), bytes, or (text, codec)."""
    cases: dict[str, str | bytes | tuple[str, str]] = {}

    cases["cp949"] = (csv_text(base_rows()), "cp949")
    # valid CP949 for more than the 64 KB the encoding sniffer reads, then a byte CP949
    # does not have: the file is refused, not decoded "mostly"
    long_rows = [plan_row(q, r) for r in ROUNDS for q in range(1, 61)]
    cases["cp949_corrupt"] = csv_text(long_rows).encode("cp949") + b"\xff\xff,broken\r\n"
    cases["utf8_no_bom"] = (csv_text(base_rows()), "utf-8")
    cases["utf16"] = (csv_text(base_rows()), "utf-16")
    cases["utf16le_no_bom"] = (csv_text(base_rows()), "utf-16-le")

    # records end in CRLF and LF alternately; cells hold LF and CRLF line breaks
    rows = base_rows()
    rows[0]["질의"] = "첫 줄\n둘째 줄"
    rows[1]["질의"] = "첫 줄\r\n둘째 줄"
    lines = csv_text(rows).split("\r\n")
    text = lines[0] + "\r\n"
    for i, record in enumerate(lines[1:-1]):
        text += record + ("\n" if i % 2 == 0 else "\r\n")
    cases["mixed_newlines"] = text

    # an inner quote not doubled: "a "quoted" word" (record 2 of 4)
    rows = base_rows()
    rows[1]["질의"] = "QUOTE_HERE"
    text = csv_text(rows).replace("QUOTE_HERE", '"채용 "공고" 확인"')
    cases["broken_quote"] = text

    # a quote opened and never closed in record 3 of 4: the rest of the file is one record
    rows = base_rows()
    rows[2]["질의"] = "OPEN_HERE"
    cases["unterminated_quote"] = csv_text(rows).replace("OPEN_HERE", '"열린 따옴표만 있음')

    # the export stopped in the middle of the last record's Raw JSON (a cut-off download)
    cases["cut_off"] = csv_text(base_rows())[:-60]

    # record 2 has one field too many, record 3 one too few
    records = [[row[name] for name in PLAN_HEADER] for row in base_rows()]
    records[1].append("extra")
    records[2].pop()
    cases["ragged_rows"] = fields_text([PLAN_HEADER, *records])

    # UTF-8 for more than the 64 KB the sniffer reads, then one record saved as CP949
    rows = [plan_row(q, r) for r in ROUNDS for q in range(1, 61)]
    utf8 = csv_text(rows[:-1]).encode("utf-8-sig")
    cp949 = csv_text(rows[-1:]).split("\r\n", 1)[1].encode("cp949")
    cases["mixed_encoding"] = utf8 + cp949

    rows = base_rows()
    extra_header = [*PLAN_HEADER[:3], "Tester", *PLAN_HEADER[3:], "Note"]
    for row in rows:
        row.update({"Tester": "kim", "Note": "memo"})
    cases["extra_columns"] = csv_text(rows, extra_header)
    reordered = [PLAN_HEADER[i] for i in (17, 3, 1, 7, 5, 0, 2, 4, 6, 8, 9, 10, 11, 12, 13, 14,
                                          15, 16)]
    cases["reordered_columns"] = csv_text(base_rows(), reordered)
    spaced = [f"  {name} " if i % 2 else f"{name}   " for i, name in enumerate(PLAN_HEADER)]
    cases["header_spaces"] = csv_text(base_rows(), spaced)

    cases["empty"] = b""
    cases["bom_only"] = "\r\n\r\n"
    cases["header_only"] = csv_text([])
    cases["duplicate_header"] = csv_text(base_rows(), [*PLAN_HEADER, "Raw JSON"])
    cases["not_text"] = bytes(range(0x80, 0x100)) * 8

    rows = base_rows()
    rows.append(plan_row(9, "1/1", **{"Item ID": rows[0]["Item ID"], "질의": "다시 보낸 질의"}))
    rows.append(plan_row(8, "2/1", **{"Item ID": f"  {rows[1]['Item ID']} "}))
    # a record another rule rejects is no first: the next with its Item ID is scored
    rows.append(plan_row(7, "1차", **{"Item ID": "item-rejected-first"}))
    rows.append(plan_row(7, "1/1", **{"Item ID": "item-rejected-first"}))
    cases["duplicate_item_ids"] = csv_text(rows)

    rows = base_rows()
    rows.append(plan_row(3, "1/1", **{"Item ID": ""}))
    rows.append(plan_row(4, "1/1", **{"Query ID": "  "}))
    cases["missing_keys"] = csv_text(rows)

    rows = base_rows()
    rows.append({name: "nan" for name in PLAN_HEADER})
    rows.append({name: "" for name in PLAN_HEADER})
    rows.append({name: "  " if i % 2 else "NaN" for i, name in enumerate(PLAN_HEADER)})
    keys_only = {name: "nan" for name in PLAN_HEADER}
    keys_only.update({"Item ID": "item-keys-only", "Query ID": "Q-09", "방/반복": "1/1"})
    rows.append(keys_only)
    cases["nan_blank"] = csv_text(rows)

    rows = base_rows()
    rows[3]["방/반복"] = " 2/1 "
    for n, label in enumerate(["1회차", "1-1", "round 2", ""], start=5):
        rows.append(plan_row(n, "1/1", **{"방/반복": label}))
    cases["bad_round_label"] = csv_text(rows)

    rows = [plan_row(q, r) for r in ROUNDS for q in (1, 2)] + [plan_row(3, "1/1")]
    cases["one_round_query"] = csv_text(rows)

    rows = base_rows()
    big = payload(message=KEYWORD + " " + "가" * 40000)
    rows[0]["Raw JSON"] = raw(big)[:32767]
    cases["truncated_json"] = csv_text(rows)

    rows = []
    for n, cell in enumerate(["null", "[1, 2]", "42", '"just text"', "true", "{not json"],
                             start=1):
        rows.append(plan_row(n, "1/1", **{"Raw JSON": cell}))
    cases["raw_json_shapes"] = csv_text(rows)

    rows = base_rows()
    as_string = payload(ui=[{"uiValue": raw(ui_item()["uiValue"])}])
    rows[0]["Raw JSON"] = raw(as_string)
    rows[1]["Raw JSON"] = raw(payload(ui=[{"uiValue": "{formType: SELECT"}]))
    cases["ui_value_string"] = csv_text(rows)

    rows = []
    times: list[str] = ['"7.5"', "-3", "NaN", '"NaN"', "Infinity", '"abc"', "12", "null"]
    for n, seconds in enumerate(times, start=1):
        cell = raw(payload(seconds="SECONDS")).replace('"SECONDS"', seconds)
        rows.append(plan_row(n, "1/1", **{"Raw JSON": cell}))
    cases["response_time"] = csv_text(rows)

    # 기대결과 as a JSON object whose other keys are no JSON path ('"', '.', '[', empty)
    rows = base_rows()
    for row in rows:
        row["기대결과"] = json.dumps(
            {"formType": "SELECT", 'we"ird': 1, "a.b[0]": 2, "": 3, "multiSelectAllowYn": True}
        )
    cases["json_expected_odd_keys"] = csv_text(rows)

    rows = base_rows()
    nasty_query = "Q|1 <i>x</i>"
    rows[0].update({"Query ID": nasty_query, "질의": NASTY, "기대결과": expected(NASTY)})
    rows[2].update({
        "Query ID": nasty_query,
        "질의": NASTY,
        "기대결과": expected(NASTY),
        "오류": "HTTP 500: " + NASTY,
    })
    rows[1]["Raw JSON"] = raw(payload(message=NASTY))
    cases["nasty_text"] = csv_text(rows)
    return cases


def expected(keyword: str) -> str:
    """An expected result whose keyword check holds `keyword` on one line."""
    return expected_result(" ".join(keyword.replace('"', "'").split()))


def fields_text(records: list[list[str]]) -> str:
    """Records written field by field, whatever their length."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(records)
    return out.getvalue()


def resume_row(query_no: int, round_label: str, track: str = "Track 1",
               **cells: str) -> dict[str, str]:
    row = plan_row(query_no, round_label, **cells)
    row["Query ID"] = cells.get("Query ID", f"F-{query_no:02d}")
    row["Track"] = track
    row["기대결과"] = cells.get("기대결과", "지원자 목록을 보여준다")
    return row


def resume_cases() -> dict[str, str | bytes | tuple[str, str]]:
    rows = [resume_row(q, r) for r in ROUNDS for q in (1, 2)]
    rows.append(resume_row(3, "1/1", track=""))
    rows.append(resume_row(4, "1/1", **{"Raw JSON": "nan", "응답": "지원자 3명을 찾았습니다."}))
    rows.append(resume_row(5, "1/1", **{"방/반복": "1차"}))
    rows.append(resume_row(6, "1/1", **{"Item ID": rows[0]["Item ID"]}))
    return {"bad_rows": csv_text(rows, RESUME_HEADER)}


def missing_column_cases() -> dict[str, str]:
    header = [name for name in PLAN_HEADER if name != "Raw JSON"]
    return {
        "plan_agent_missing_raw_json": csv_text(base_rows(), header),
        "resume_agent_complete": csv_text(
            [resume_row(q, r) for r in ROUNDS for q in (1, 2)], RESUME_HEADER
        ),
    }


def huge_cell_file(directory: Path, megabytes: int = 10) -> Path:
    """A plan export whose first Raw JSON holds a `megabytes` MB assistantMessage ending in
    the keyword its check looks for (written at test time, never committed)."""
    rows = base_rows()
    message = "가나다라마바사 " * (megabytes * (1 << 20) // 22) + KEYWORD
    rows[0]["Raw JSON"] = raw(payload(message=message))
    path = directory / "plan_agent_huge_cell.csv"
    write(path, csv_text(rows))
    return path


def write_corpus(root: Path = FILES) -> list[Path]:
    if root.exists():
        shutil.rmtree(root)
    written = []
    groups = {
        "main": {
            **{f"plan_agent_{k}": v for k, v in plan_cases().items()},
            **{f"resume_agent_{k}": v for k, v in resume_cases().items()},
        },
        "missing_column": missing_column_cases(),
    }
    for group, cases in groups.items():
        for stem, content in cases.items():
            path = root / group / f"{stem}.csv"
            if isinstance(content, tuple):
                write(path, content[0], content[1])
            else:
                write(path, content)
            written.append(path)
    return written


if __name__ == "__main__":
    for path in write_corpus():
        print(f"{path.relative_to(HERE)}: {path.stat().st_size} bytes")
