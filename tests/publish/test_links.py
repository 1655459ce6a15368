"""The internal link checker: every href/src inside the site resolves, every #fragment exists."""

from __future__ import annotations

from pathlib import Path

from tests.publish.sitecheck import link_problems, resolve


def test_every_internal_link_and_fragment_resolves(built_site: Path) -> None:
    checked, problems = link_problems(built_site)
    assert checked > 250
    assert problems == []


def test_the_checker_sees_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<a href="/quietedit/missing/">x</a><a href="#nope">y</a>')
    page = tmp_path / "index.html"
    target, _ = resolve(tmp_path, page, "/quietedit/missing/") or (None, "")
    assert target is not None and not target.is_file()
    assert resolve(tmp_path, page, "https://elsewhere.example/") is None
