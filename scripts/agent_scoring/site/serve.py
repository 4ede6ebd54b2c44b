"""`score-report site --serve`: the written site on 127.0.0.1, from the standard library."""

from __future__ import annotations

from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from agent_scoring.site.html import CSP


class SiteHandler(SimpleHTTPRequestHandler):
    """Files of the site only, with the pages' security policy as headers too."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript; charset=utf-8",
                      ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", f"{CSP}; frame-ancestors 'none'")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the stdlib's name
        pass


def server(root: Path, port: int) -> ThreadingHTTPServer:
    """A server of `root` on 127.0.0.1:`port` (0: any free port), not yet serving."""
    return ThreadingHTTPServer(("127.0.0.1", port), partial(SiteHandler, directory=str(root)))
