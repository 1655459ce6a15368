"""The built demo site's feeds against RFC 4287 and RSS 2.0 (no browser needed)."""

from __future__ import annotations

from pathlib import Path

from tests.publish.atomcheck import (
    atom_feed_files,
    atom_problems,
    duplicate_entry_ids,
    duplicate_guids,
    rss_problems,
)


def test_every_atom_feed_of_the_demo_site_validates_against_rfc_4287(demo_site: Path) -> None:
    feeds = atom_feed_files(demo_site)
    # the main feed and one per source; of articles only a live blog's live updates
    assert len(feeds) >= 1 + 1, feeds
    assert [p.name for p in feeds if "articles" in p.parts] == ["live.xml"]
    problems = {
        str(path.relative_to(demo_site)): [str(p) for p in atom_problems(path.read_bytes())]
        for path in feeds
    }
    assert {path: found for path, found in problems.items() if found} == {}
    assert all(duplicate_entry_ids(path.read_bytes()) == [] for path in feeds)


def test_every_rss_twin_of_the_demo_site_meets_rss_2(demo_site: Path) -> None:
    twins = sorted(demo_site.rglob("*.rss"))
    assert twins
    problems = {
        str(path.relative_to(demo_site)): [str(p) for p in rss_problems(path.read_bytes())]
        for path in twins
    }
    assert {path: found for path, found in problems.items() if found} == {}
    assert all(duplicate_guids(path.read_bytes()) == [] for path in twins)
