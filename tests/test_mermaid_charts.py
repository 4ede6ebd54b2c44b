"""Every mermaid chart in every golden report renders in a real browser: headless Chromium
(Debian's `chromium`) with mermaid from npm, both local, no network. The test reads the
SVG mermaid returns: a parse error, or mermaid's error diagram in its place, fails it.

`.ci/run` installs both (`apt-get install chromium`, `npm install mermaid` into
.ci/node_modules); elsewhere set MERMAID_JS to a mermaid.min.js, or the test is skipped and
says what is missing.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.markdown import mermaid_blocks
from support.warehouse import REPO

GOLDEN = REPO / "tests" / "golden"
MERMAID_JS = Path(os.environ.get("MERMAID_JS")
                  or REPO / ".ci" / "node_modules" / "mermaid" / "dist" / "mermaid.min.js")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# as the machine's notes advise: no background networking on a closed network
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--allow-file-access-from-files", "--virtual-time-budget=60000", "--dump-dom"]

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><script src="{script}"></script></head>
<body><script>
const blocks = {blocks};
mermaid.initialize({{startOnLoad: false, securityLevel: "strict"}});
(async () => {{
  const results = [];
  for (let i = 0; i < blocks.length; i++) {{
    try {{
      const {{svg}} = await mermaid.render("chart" + i, blocks[i]);
      const role = (svg.match(/aria-roledescription="([^"]*)"/) || [])[1] || null;
      results.push({{role, svg: svg.length,
                     error_box: role === "error" || svg.includes("Syntax error in text")}});
    }} catch (e) {{
      results.push({{error: String((e && e.message) || e)}});
    }}
  }}
  const out = document.createElement("pre");
  out.id = "results";
  out.textContent = JSON.stringify(results);
  document.body.appendChild(out);
}})();
</script></body></html>
"""


def render_in_chromium(blocks: list[str], work: Path) -> list[dict]:
    page = work / "charts.html"
    page.write_text(PAGE.format(script=MERMAID_JS.as_uri(), blocks=json.dumps(blocks)),
                    encoding="utf-8")
    proc = subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={work / 'profile'}", page.as_uri()],
        capture_output=True, text=True, timeout=300,
    )
    found = re.search(r'<pre id="results">(.*?)</pre>', proc.stdout, re.S)
    assert found, f"no results from chromium:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


def golden_charts() -> list[tuple[str, str]]:
    return [(f"{path.name} #{n + 1}", block)
            for path in sorted(GOLDEN.glob("*.md"))
            for n, block in enumerate(mermaid_blocks(path.read_text(encoding="utf-8")))]


def test_the_golden_reports_have_charts():
    names = {name.split(" #")[0] for name, _ in golden_charts()}
    assert {"plan_agent_sample_score_summary.md", "plan_agent_run_b_compare.md"} <= names


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
@pytest.mark.skipif(not MERMAID_JS.exists(),
                    reason=f"needs mermaid from npm at {MERMAID_JS} (npm install --prefix .ci "
                           "mermaid) or MERMAID_JS")
def test_every_chart_of_every_golden_report_renders_in_a_browser(tmp_path):
    charts = golden_charts()
    results = render_in_chromium([block for _, block in charts], tmp_path)
    assert len(results) == len(charts)
    failed = {name: result for (name, _), result in zip(charts, results, strict=True)
              if "error" in result or result["error_box"] or result["role"] != "xychart"}
    assert failed == {}


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
@pytest.mark.skipif(not MERMAID_JS.exists(), reason=f"needs mermaid at {MERMAID_JS}")
def test_a_broken_chart_is_caught(tmp_path):
    results = render_in_chromium(["xychart-beta\n    line [1, 2", "xychart-beta\n    bar [1]"],
                                 tmp_path)
    assert "error" in results[0]
    assert results[1]["role"] == "xychart"
