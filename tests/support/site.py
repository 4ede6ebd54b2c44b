"""What the run browser's tests share: a page's safety-relevant parts read by an HTML
parser, and headless Chromium (Debian's) through Playwright."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


class Page(HTMLParser):
    """What a page holds that matters for its safety, and its visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.inline_scripts, self.handlers, self.styles, self.csp = 0, [], [], None
        self.tags: list[str] = []
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        self.tags.append(tag)
        self.handlers += [name for name in names if name.startswith("on")]
        if "style" in names:
            self.styles.append(tag)
        if tag == "script":
            self._in_script = True
            self.inline_scripts += "src" not in names
        if tag == "meta" and names.get("http-equiv") == "Content-Security-Policy":
            self.csp = names.get("content")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if not self._in_script:
            self.text.append(data)


def parsed(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium browser (Playwright's sync API), closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
