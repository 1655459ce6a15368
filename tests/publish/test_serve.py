"""``quietedit serve``: GitHub Pages semantics over real HTTP on loopback, and rebuilds."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from quietedit.errors import PublishError
from quietedit.publish.serve import Watcher, make_server, normalize_base_path


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "stats").mkdir(parents=True)
    (root / "index.html").write_text("home", encoding="utf-8")
    (root / "stats/index.html").write_text("stats", encoding="utf-8")
    (root / "about.html").write_text("about", encoding="utf-8")
    (root / "404.html").write_text("custom not found", encoding="utf-8")
    (root / "feed.xml").write_text("<feed/>", encoding="utf-8")
    (root / ".quietedit-cache").mkdir()
    (root / ".quietedit-cache/manifest.json").write_text("{}", encoding="utf-8")
    return root


@pytest.fixture
def base(site: Path) -> Iterator[str]:
    server = make_server(site, port=0, base_path="/repo/")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def get(url: str) -> httpx.Response:
    return httpx.get(url, follow_redirects=False, timeout=5)


def test_pages_are_found_the_way_github_pages_finds_them(base: str) -> None:
    assert get(f"{base}/repo/").text == "home"
    assert get(f"{base}/repo/stats/").text == "stats"
    assert get(f"{base}/repo/about").text == "about"  # extensionless → about.html
    folder = get(f"{base}/repo/stats")
    assert folder.status_code == 301 and folder.headers["location"] == "/repo/stats/"
    assert get(f"{base}/repo").headers["location"] == "/repo/"
    assert (
        get(f"{base}/repo/feed.xml")
        .headers["content-type"]
        .startswith(("application/xml", "text/xml"))
    )


def test_unknown_paths_get_the_404_page_with_status_404(base: str) -> None:
    for path in ("/repo/nope", "/repo/nope/", "/elsewhere/", "/repo/../index.html"):
        response = get(base + path)
        assert response.status_code == 404, path
        assert response.text == "custom not found"


def test_the_build_cache_and_other_dot_files_are_never_served(base: str) -> None:
    assert get(f"{base}/repo/.quietedit-cache/manifest.json").status_code == 404


def test_base_paths_are_normalised_and_traversal_refused() -> None:
    assert normalize_base_path("repo") == "/repo/" and normalize_base_path("/") == "/"
    with pytest.raises(PublishError, match="segments"):
        normalize_base_path("/a/../b")


def test_watcher_rebuilds_when_a_template_changes_and_not_otherwise(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    page = templates / "base.html"
    page.write_text("v1", encoding="utf-8")
    calls: list[int] = []
    watcher = Watcher([templates, tmp_path / "data"], lambda: calls.append(1))
    assert watcher.check() is False
    page.write_text("v2, longer", encoding="utf-8")
    import os

    os.utime(page, ns=(1, 10**18))
    assert watcher.check() is True and calls == [1]
    assert watcher.check() is False


def test_port_in_use_is_a_clear_error(site: Path) -> None:
    first = make_server(site, port=0)
    try:
        with pytest.raises(PublishError, match="choose another --port"):
            make_server(site, port=first.server_address[1])
    finally:
        first.server_close()
