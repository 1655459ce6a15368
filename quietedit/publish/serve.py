"""``quietedit serve``: a local preview with GitHub Pages semantics, rebuilt on change.

Pages serves ``/a/b`` from ``a/b.html`` (or ``a/b/index.html``), ``/a/`` from
``a/index.html``, a folder without its slash by redirecting to it, and anything else with
``404.html`` and status 404; a project site lives under ``/<repo>/``. This server does the
same on 127.0.0.1 only, never serves dot-files (the build cache), and a watcher polls the
archive's and templates' modification times and rebuilds when they change.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

from quietedit.errors import PublishError

logger = logging.getLogger(__name__)

HOST: Final = "127.0.0.1"
"""Loopback only: a preview is not a public server."""
POLL_INTERVAL: Final = 1.0
"""Seconds between two looks at the archive's and templates' modification times."""


def normalize_base_path(base_path: str) -> str:
    """``repo`` / ``/repo`` / ``/repo/`` → ``/repo/``; ``""`` or ``/`` → ``/``."""
    parts = [p for p in base_path.split("/") if p]
    if any(p in {".", ".."} for p in parts):
        raise PublishError(f"--base-path {base_path!r} has . or .. segments; use e.g. /repo/")
    return "/" + "".join(f"{p}/" for p in parts)


class PagesHandler(SimpleHTTPRequestHandler):
    """Serves the site folder the way GitHub Pages does (see the module docstring)."""

    base_path = "/"

    def __init__(self, *args: Any, directory: str, base_path: str, **kwargs: Any) -> None:
        self.base_path = base_path
        super().__init__(*args, directory=directory, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("serve: " + format, *args)

    def send_head(self) -> Any:
        root = Path(self.directory)
        raw = urlsplit(self.path).path
        path = unquote(raw)
        if not path.startswith(self.base_path):
            if path.rstrip("/") + "/" == self.base_path:
                return self._redirect(self.base_path)
            return self._not_found(root)
        inner = path[len(self.base_path) :]
        parts = [p for p in inner.split("/") if p]
        if any(p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            return self._not_found(root)
        target = root.joinpath(*parts)
        if inner.endswith("/") or not parts:
            candidate = target / "index.html"
        elif target.is_file():
            candidate = target
        elif target.with_name(target.name + ".html").is_file():
            candidate = target.with_name(target.name + ".html")
        elif (target / "index.html").is_file():
            return self._redirect(raw + "/")
        else:
            candidate = target
        if not candidate.is_file() or not candidate.resolve().is_relative_to(root.resolve()):
            return self._not_found(root)
        # hand the resolved file to the stdlib (content type, length, HEAD)
        self.path = "/" + candidate.relative_to(root).as_posix()
        return super().send_head()

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()
        return None

    def _not_found(self, root: Path) -> Any:
        page = root / "404.html"
        body = page.read_bytes() if page.is_file() else b"Not found\n"
        self.send_response(HTTPStatus.NOT_FOUND)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None


def make_server(out: Path, *, port: int, base_path: str = "/") -> ThreadingHTTPServer:
    """A Pages-like server for ``out`` on 127.0.0.1:``port`` (0 picks a free port)."""
    handler = partial(PagesHandler, directory=str(out), base_path=normalize_base_path(base_path))
    try:
        return ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise PublishError(
            f"cannot listen on {HOST}:{port}: {exc.strerror}; choose another --port"
        ) from exc


def snapshot(paths: list[Path]) -> tuple[tuple[str, int], ...]:
    """Modification times of every folder and template file under ``paths``.

    In the archive, a new or replaced file changes its folder's mtime, so folders suffice
    there; template files are few and edited in place, so they are listed one by one.
    """
    seen: list[tuple[str, int]] = []
    for root in paths:
        if not root.exists():
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            seen.append((folder, os.stat(folder).st_mtime_ns))
            for name in sorted(files):
                if name.endswith((".html", ".xml", ".md", ".css", ".js", ".txt", ".rss")):
                    path = os.path.join(folder, name)
                    seen.append((path, os.stat(path).st_mtime_ns))
    return tuple(seen)


class Watcher:
    """Calls ``rebuild`` when :func:`snapshot` of ``paths`` changes; ``check`` is one look."""

    def __init__(self, paths: list[Path], rebuild: Callable[[], None]) -> None:
        self.paths = paths
        self.rebuild = rebuild
        self.state = snapshot(paths)
        self.stop = threading.Event()

    def check(self) -> bool:
        current = snapshot(self.paths)
        if current == self.state:
            return False
        self.state = current
        try:
            self.rebuild()
        except Exception as exc:  # noqa: BLE001 - a broken template must not stop the preview
            logger.error("rebuild failed: %s", exc)
        # the build's own writes are not changes to watch
        self.state = snapshot(self.paths)
        return True

    def run(self, interval: float = POLL_INTERVAL) -> None:
        while not self.stop.wait(interval):
            self.check()


def serve_forever(server: ThreadingHTTPServer, watcher: Watcher | None) -> None:
    """Serve until interrupted; the watcher (if any) polls in a daemon thread."""
    thread = None
    if watcher is not None:
        thread = threading.Thread(target=watcher.run, name="quietedit-watch", daemon=True)
        thread.start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        logger.info("stopped")
    finally:
        if watcher is not None:
            watcher.stop.set()
        server.server_close()
