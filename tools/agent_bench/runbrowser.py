"""The run browser (`score-report site`): what it wrote, walked on disk, and the first render
of its largest run page in headless Chromium (playwright). No Chromium or no playwright is a
figure of None with the reason, never a failed benchmark."""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
LOADING = "불러오는 중"  # in #item-status until the item table has read all its data files
LOADED = re.compile(r"항목 \d+개 중 \d+개 표시")  # else a data file failed (site.js)
RENDER_TIMEOUT_S = 300
# true (the page's clock, ms since navigation) once the item table has all its rows; polled
# on every animation frame, so the time is that of the first frame showing them
_LOADED = (
    "() => { const s = document.getElementById('item-status');"
    " if (!s) { return 'no #item-status on the page'; }"
    f" return !s.textContent.includes({LOADING!r}) ? performance.now() : false; }}"
)
_DOM_CONTENT_LOADED = (
    "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
)


@dataclass
class SiteFiles:
    files: int
    total_bytes: int
    largest: str  # relative to the site's root
    largest_bytes: int
    run_page: str | None  # the run page with the most item data, relative

    def as_dict(self) -> dict[str, Any]:
        return {"files": self.files, "total_bytes": self.total_bytes, "largest": self.largest,
                "largest_bytes": self.largest_bytes, "largest_run_page": self.run_page}


def walk_site(root: Path) -> SiteFiles:
    sizes = {path.relative_to(root).as_posix(): path.stat().st_size
             for path in root.rglob("*") if path.is_file()}
    largest = max(sizes, key=sizes.__getitem__, default="")
    # the largest run: most bytes of item rows (runs/<agent>/<run>/rows-NNNN.js)
    by_run: dict[str, int] = {}
    for relative, size in sizes.items():
        parts = relative.split("/")
        if len(parts) == 4 and parts[0] == "runs" and parts[3].startswith("rows-"):
            page = "/".join(parts[:3]) + "/index.html"
            by_run[page] = by_run.get(page, 0) + size
    run_page = max(by_run, key=by_run.__getitem__, default=None)
    if run_page is not None and run_page not in sizes:
        run_page = None
    return SiteFiles(len(sizes), sum(sizes.values()), largest, sizes.get(largest, 0), run_page)


def first_render(page: Path) -> dict[str, Any]:
    """Open `page` from file:// in a new headless Chromium: ms from navigation start to
    DOMContentLoaded and to the first frame whose #item-status no longer says it is loading,
    and that status text. On any trouble the times are None and `reason` says why."""
    figures: dict[str, Any] = {"page": str(page), "dom_content_loaded_ms": None,
                               "items_loaded_ms": None, "launch_s": None, "status": None,
                               "reason": None}
    executable = CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")
    if executable is None:
        figures["reason"] = f"no Chromium ({CHROMIUM} is absent and none is on PATH)"
        return figures
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        figures["reason"] = f"no playwright ({exc})"
        return figures
    try:
        with sync_playwright() as playwright:
            started = time.perf_counter()
            browser = playwright.chromium.launch(executable_path=str(executable),
                                                 args=CHROMIUM_ARGS)
            figures["launch_s"] = time.perf_counter() - started
            try:
                tab = browser.new_page()
                tab.goto(page.resolve().as_uri(), wait_until="domcontentloaded",
                         timeout=RENDER_TIMEOUT_S * 1000)
                figures["dom_content_loaded_ms"] = tab.evaluate(_DOM_CONTENT_LOADED)
                loaded = tab.wait_for_function(_LOADED, timeout=RENDER_TIMEOUT_S * 1000)
                loaded_ms = loaded.json_value()
                if isinstance(loaded_ms, str):
                    figures["reason"] = loaded_ms
                    return figures
                figures["items_loaded_ms"] = loaded_ms
                figures["status"] = tab.text_content("#item-status")
            finally:
                browser.close()
        if not LOADED.fullmatch((figures["status"] or "").strip()):
            figures["reason"] = f"the item table did not load: {figures['status']!r}"
            figures["items_loaded_ms"] = None
    except Exception as exc:  # noqa: BLE001 - a figure missing, with its reason
        message = str(exc).strip().splitlines()
        figures["reason"] = f"{type(exc).__name__}: {message[0] if message else ''}"
        figures["items_loaded_ms"] = None
    return figures
