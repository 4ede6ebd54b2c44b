"""`score-report site`: the run browser as static files, from the same marts and markdown
reports as `score-report`. Each page is a jinja2 template over rows selected from the marts;
item tables and item pages read their rows from data files beside the run page, written in
chunks so that no file grows past a few hundred kB whatever the size of the run."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.resources import files as package_files
from pathlib import Path

from agent_scoring import history
from agent_scoring.db import IN_FILES, Connection, rows, spelled_out, tables
from agent_scoring.markdown import render as render_markdown
from agent_scoring.reports import Reporter, registry
from agent_scoring.reports import compare as compare_report
from agent_scoring.site import charts
from agent_scoring.site.html import chart_svg, render, report_html, slug

MARKER = ".score-report-site"
# rows fetched at a time from the one pass over every item
FETCH_ROWS = 50_000
# items per data file of the item table, and per data file of the item pages: an item page
# shows at most SHOWN_REPLY_CHARS of a raw reply (Excel's cell limit; the corpus has a 10 MB
# one), so 20 of them stay under 2 MB even in Korean (3 bytes a character)
ROW_CHUNK = 2000
DETAIL_CHUNK = 20
SHOWN_REPLY_CHARS = 32767
# the item table's columns, in the order of each row's array in rows-NNNN.js
ROW_COLUMNS = ("record_no", "query_id", "round_label", "query_text", "status",
               "failed_checks", "speed_band_label", "is_flaky", "llm_item_score",
               "rule_intent_score", "intent_score", "category", "track", "response_time_sec")
DETAIL_COLUMNS = ("record_no", "item_id", "query_id", "round_label", "category", "track",
                  "query_text", "expected_result", "status", "error_message", "score_source",
                  "intent_score", "rule_intent_score", "llm_intent_score", "llm_score",
                  "llm_status", "llm_comment", "total_score", "response_time_sec",
                  "response_time_problem", "speed_rubric", "speed_points", "speed_band_label",
                  "is_flaky", "check_count", "check_passed", "raw_reply", "raw_reply_chars")
# what the item page shows of a column, where it is not the column itself
SHOWN = {"raw_reply": f"left(raw_reply, {SHOWN_REPLY_CHARS})",
         "raw_reply_chars": "length(raw_reply)"}
TREND_COLUMNS = ["intent_score", "accuracy_score", "stability_score"]
RAG = "rag"


@dataclass
class Site:
    """What a site build wrote: its pages and data files, and the reports that failed."""

    root: Path
    written: dict[Path, int] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    runs: list[dict] = field(default_factory=list)

    def write(self, relative: str, text: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        self.written[Path(relative)] = len(data)

    def largest(self) -> tuple[Path, int]:
        return max(self.written.items(), key=lambda kv: kv[1])


def depth_root(relative: str) -> str:
    """The relative way back to the site's root from a page at `relative`."""
    return "../" * relative.count("/")


def run_path(agent: str, source_file: str) -> str:
    return f"runs/{slug(agent)}/{slug(source_file)}/"


def compare_path(agent: str, head: str, base: str) -> str:
    return f"compare/{slug(agent)}/{slug(head)}--{slug(base)}.html"


def data_call(kind: str, chunk: int, payload: str) -> str:
    """A data file: a script that hands its rows to the page (site.js). JSON is JavaScript,
    and an external script is never parsed as HTML, so no text in it can end it."""
    return f"window.siteData.add({json.dumps(kind)}, {chunk}, {payload});\n"


def json_array_sql(columns: tuple[str, ...]) -> str:
    return "json_array(" + ", ".join(SHOWN.get(c, c) for c in columns) + ")"


class ItemData:
    """One run's item data files as its rows stream in: rows-NNNN.js for every item, and
    details-NNNN.js (expected result, raw reply, checks …) for the items whose raw reply the
    warehouse kept."""

    def __init__(self, site: Site, agent: str, source_file: str) -> None:
        self.site, self.agent, self.source_file = site, agent, source_file
        self.base = run_path(agent, source_file)
        self.rows: dict[int, list[str]] = defaultdict(list)
        self.details: list[tuple[int, str]] = []
        self.count = 0

    def write(self, con: Connection) -> dict:
        """Write the files; returns what the run's pages need to read them."""
        for chunk, items in self.rows.items():
            self.site.write(f"{self.base}rows-{chunk:04d}.js",
                            data_call("rows", chunk, f"[{','.join(items)}]"))
        checks: dict[int, list[dict]] = defaultdict(list)
        # only the checks of the items with a page of their own (a 100k-row file: 5,000)
        for check in rows(con, "select record_no, check_no, check_kind, expected_value, "
                          "passed, value_elsewhere_in_item, read_field from report_site_checks "
                          "where agent = ? and source_file = ? and record_no <= ? "
                          "order by record_no, check_no",
                          [self.agent, self.source_file,
                           self.details[-1][0] if self.details else 0]):
            checks[check.pop("record_no")].append(check)
        chunks: dict[int, list[str]] = defaultdict(list)
        for record_no, detail in self.details:
            item_checks = json.dumps(checks.get(record_no, []), ensure_ascii=False)
            chunks[(record_no - 1) // DETAIL_CHUNK].append(f"[{detail},{item_checks}]")
        for chunk, items in chunks.items():
            self.site.write(f"{self.base}details-{chunk:04d}.js",
                            data_call("details", chunk, f"[{','.join(items)}]"))
        return {
            "item_count": self.count, "row_chunks": sorted(self.rows),
            "detail_chunks": sorted(chunks), "row_chunk": ROW_CHUNK,
            "detail_chunk": DETAIL_CHUNK, "row_columns": ROW_COLUMNS,
            "detail_columns": DETAIL_COLUMNS, "with_details": len(self.details),
        }


def write_items(site: Site, con: Connection, agents: tuple[str, ...]) -> dict[tuple, dict]:
    """Every run's item data in one pass over report_site_items (a view of every item: read
    once, not once per run); per (agent, source_file), what its pages need to read them."""
    written: dict[tuple, dict] = {}
    where = f"where agent {IN_FILES} " if agents else ""
    # a cursor of its own: each run's checks are read while the items still stream in, and a
    # query on the same connection would end this one
    stream = con.cursor() if hasattr(con, "cursor") else con
    cursor = stream.execute(*spelled_out(
        f"select agent, source_file, record_no, {json_array_sql(ROW_COLUMNS)}, "
        f"case when raw_reply is not null then {json_array_sql(DETAIL_COLUMNS)} end "
        f"from report_site_items {where}order by agent, source_file, record_no",
        [list(agents)] if agents else []))
    current: ItemData | None = None
    key = None
    while batch := cursor.fetchmany(FETCH_ROWS):
        for agent, source_file, record_no, row, detail in batch:
            if (agent, source_file) != key:
                if current is not None:
                    written[key] = current.write(con)
                current, key = ItemData(site, agent, source_file), (agent, source_file)
                add_row, details = current.rows, current.details
            add_row[(record_no - 1) // ROW_CHUNK].append(row)
            if detail is not None:
                details.append((record_no, detail))
            current.count += 1
    if current is not None:
        written[(current.agent, current.source_file)] = current.write(con)
    return written


def reports(con: Connection, reporter: Reporter, files: list[str]
            ) -> list[tuple[str, str | None, Exception | None]]:
    """(file, markdown, None) per file, or (file, None, error): one bad file never stops the
    others (as `score-report`)."""
    try:
        contexts: list[dict | None] = reporter.contexts(con, files)
    except Exception:  # noqa: BLE001 - the batch failed: build each alone to find the file
        contexts = [None] * len(files)
    made = []
    for source_file, context in zip(files, contexts, strict=True):
        try:
            context = context or reporter.contexts(con, [source_file])[0]
            made.append((source_file, render_markdown(reporter.template, context), None))
        except Exception as exc:  # noqa: BLE001 - named, exit status 1 at the end
            made.append((source_file, None, exc))
    return made


def agent_runs(con: Connection, agent: str) -> list[dict]:
    return rows(con, "select * from runs where agent = ? order by run_order", [agent])


def rag_runs(con: Connection) -> list[dict]:
    return rows(con, "select * from rag_run_scores order by run_at nulls first, report_file")


def comparisons(con: Connection, runs: list[dict]) -> dict[str, list[dict]]:
    """Each run's significance rows against its previous run (report_run_comparisons)."""
    found = rows(con, "select source_file, metric_label, as_share, delta, delta_ci_low, "
                 "delta_ci_high, verdict, verdict_label from report_run_comparisons "
                 "order by source_file, metric_order")
    by_file: dict[str, list[dict]] = defaultdict(list)
    for r in found:
        by_file[r.pop("source_file")].append(r)
    return {run["source_file"]: by_file.get(run["source_file"], []) for run in runs}


def write_compare(site: Site, con: Connection, pair: history.Pair) -> str:
    context = compare_report.context(con, pair, history.TREND_RUNS)
    relative = compare_path(pair.agent, pair.head["source_file"], pair.base["source_file"])
    items = [row | {"change_title": section["change_title"]}
             for section in context["sections"] for row in section["rows"]]
    site.write(relative, render(
        "compare.html.j2", root=depth_root(relative), pair=pair,
        report=report_html(render_markdown("compare_report.md.j2", context)), items=items,
        head_page=run_path(pair.agent, pair.head["source_file"]),
        base_page=run_path(pair.agent, pair.base["source_file"]),
        title=f"{pair.head['source_file']} vs {pair.base['source_file']}"))
    return relative


def pair_of(con: Connection, head: str, base: str) -> history.Pair:
    """Any two runs of one agent, as `score-report compare --head --base` takes them."""
    return history.select_pairs(con, (), base, head)[0]


def write_routing(site: Site, con: Connection, runs: list[dict]) -> str | None:
    """Every routing run side by side: accuracy per expected agent, the confusion matrix as
    a heat table and the run settings (the router_agent marts)."""
    present = tables(con)
    if not {"router_agent__accuracy", "router_agent__confusion",
            "router_agent__run_settings"} <= present or not runs:
        return None
    files = [r["source_file"] for r in runs]
    accuracy = rows(con, "select * from router_agent__accuracy order by source_file, "
                    "expected_agent nulls first")
    confusion = rows(con, "select * from router_agent__confusion order by source_file, "
                     "expected_agent, returned_agent")
    settings = rows(con, "select * from router_agent__run_settings order by setting_no, "
                    "source_file")
    matrices = []
    for source_file in files:
        cells = [c for c in confusion if c["source_file"] == source_file]
        expected = sorted({c["expected_agent"] or "" for c in cells})
        returned = sorted({c["returned_agent"] or "" for c in cells})
        counts = {(c["expected_agent"] or "", c["returned_agent"] or ""): c["query_count"]
                  for c in cells}
        top = max(counts.values(), default=1) or 1
        matrices.append({"source_file": source_file, "expected": expected,
                         "returned": returned, "counts": counts, "top": top})
    setting_names = list(dict.fromkeys(s["setting"] for s in settings))
    by_setting = {(s["setting"], s["source_file"]): s for s in settings}
    relative = "routing.html"
    site.write(relative, render(
        "routing.html.j2", root="", files=files, title="라우팅 (router_agent)",
        accuracy=[a for a in accuracy if a["source_file"] in files], matrices=matrices,
        setting_names=setting_names, by_setting=by_setting, run_path=run_path))
    return relative


def write_rag_questions(con: Connection, run: dict) -> list[dict]:
    return rows(con, "select question_id, category, subcategory, question_text, "
                "judge_status, passed, overall_score, faithfulness, relevance, completeness, "
                "hallucination_detected, behavior_correct, reasoning, error "
                "from rag_judgements where run_id = ? order by category_order nulls last, "
                "result_ordinal", [run["run_id"]])


def copy_assets(site: Site) -> None:
    for name in ("site.css", "site.js"):
        text = (package_files("agent_scoring.site") / "static" / name).read_text("utf-8")
        site.write(f"assets/{name}", text)


def build(con: Connection, out: Path, agents: tuple[str, ...],
          echo: Callable[[str], None] = print,
          pairs: tuple[tuple[str, str], ...] = ()) -> Site:
    """Write the whole site into a new folder, then put it in `out`'s place: a reader never
    sees half of it, and a folder `score-report site` did not write is never replaced."""
    out = out.resolve()
    chosen = [pair_of(con, head, base) for head, base in pairs]  # a wrong name: nothing written
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        raise FileExistsError(f"{out} holds files `score-report site` did not write; "
                              "give another --out or empty it")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        site = Site(work)
        write_pages(site, con, agents, echo)
        for pair in chosen:
            echo(write_compare(site, con, pair))
        site.write(MARKER, "written by score-report site\n")
        if out.exists():
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
            work.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            work.rename(out)
        site.root = out
        return site
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def run_pages(site: Site, con: Connection, name: str, display: str, run: dict,
              source_file: str, text: str, significance: list[dict], data: dict | None
              ) -> dict:
    """A run's page (its report, and its item table or RAG questions), its item page and its
    comparison with the run before it; returns its entry for the index."""
    base = run_path(name, source_file)
    compare = None
    if name != RAG and run.get("previous_source_file"):
        previous = history.run(con, run["previous_source_file"])
        compare = write_compare(site, con, history.Pair(name, run, previous))
    questions = write_rag_questions(con, run) if name == RAG else []
    entry = {"agent": name, "display_name": display, "source_file": source_file, "run": run,
             "page": base + "index.html", "compare": compare, "significance": significance,
             "data": data, "size": data["item_count"] if data else len(questions)}
    site.write(base + "index.html", render(
        "run.html.j2", root=depth_root(base + "index.html"), entry=entry,
        report=report_html(text), questions=questions, title=source_file, rag=name == RAG))
    if data is not None:
        site.write(base + "item.html", render(
            "item.html.j2", root=depth_root(base + "item.html"), entry=entry,
            title=f"{source_file} 항목"))
    return entry


def agent_section(site: Site, con: Connection, name: str, reporter: Reporter,
                  items: dict[tuple, dict], echo: Callable[[str], None]) -> dict | None:
    """Every run of one agent (or of the RAG evaluation) and its trend, for the index."""
    runs = rag_runs(con) if name == RAG else agent_runs(con, name)
    if not runs:
        return None
    files = [r["report_file"] if name == RAG else r["source_file"] for r in runs]
    significance = {} if name == RAG else comparisons(con, runs)
    display = name if name == RAG else rows(
        con, "select display_name from agents where agent = ?", [name])[0]["display_name"]
    made = {f: (text, error) for f, text, error in reports(con, reporter, files)}
    entries = []
    for run, source_file in zip(runs, files, strict=True):
        text, error = made[source_file]
        if error is not None:  # named, the other runs written, exit 1 at the end
            site.failed.append(source_file)
            first = str(error).strip().splitlines()
            echo(f"{source_file}: page failed ({type(error).__name__}: "
                 f"{first[0] if first else ''})")
            continue
        data = None if name == RAG else items.get(
            (name, source_file), ItemData(site, name, source_file).write(con))
        entry = run_pages(site, con, name, display, run, source_file, text,
                          significance.get(source_file, []), data)
        entries.append(entry)
        echo(f"{entry['page']}: {entry['size']} items")
    trend = None
    if name != RAG:
        trend_rows = rows(con, "select * from run_trends where agent = ? "
                          "order by test_set_key, run_seq", [name])
        chart = charts.trend(f"{display}: 의도 충족 · 정확성 · 안정성 (실행별, 선 순서대로)",
                             trend_rows, TREND_COLUMNS, "점수")
        trend = chart_svg(chart) if chart and len(trend_rows) > 1 else None
    site.runs.extend(entries)
    return {"agent": name, "display_name": display, "runs": entries, "trend": trend}


def write_pages(site: Site, con: Connection, agents: tuple[str, ...],
                echo: Callable[[str], None]) -> None:
    reporters = registry(con)
    unknown = [a for a in agents if a not in reporters]
    if unknown:
        raise LookupError(f"unknown agent {unknown[0]!r}; known: {', '.join(sorted(reporters))}")
    copy_assets(site)
    present = tables(con)
    items = write_items(site, con, agents)
    sections = [section for name, reporter in reporters.items()
                if (not agents or name in agents) and set(reporter.required_tables) <= present
                and (section := agent_section(site, con, name, reporter, items, echo))]
    routing = None
    if (not agents or "router_agent" in agents) and "router_agent" in reporters:
        routing = write_routing(site, con, agent_runs(con, "router_agent"))
    rejected = [r for r in rows(con, "select agent, source_file, reject_code, reject_reason "
                                "from rejected_files order by source_file")
                if not agents or r["agent"] in agents]
    site.write("index.html", render("index.html.j2", root="", sections=sections,
                                    rejected=rejected, routing=routing, title="agent-scoring"))
