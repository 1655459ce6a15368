"""Story pages: the same wire story as three outlets ran it, on one page, linked from the
article pages; unrelated articles and single outlets get none."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.publish.build import BuildOptions, BuildReport, build_site
from tests.analysis.wire_stories import MUSEUM, OUTLET_A, OUTLET_B, OUTLET_C, TRAIN_STRIKE
from tests.conftest import T0, observation

URLS = {
    "a": "https://north.example.com/news/haldvik-harbour-wall-collapse",
    "b": "https://coast.example.net/2026/12/01/haldvik-sea-wall-breach",
    "c": "https://daily.example.org/world/storm-surge-what-we-know",
    "strike": "https://coast.example.net/2026/12/01/train-drivers-strike",
    "museum": "https://daily.example.org/culture/city-museum-reopens",
}


def store(
    archive: Archive, key: str, text: tuple[str, tuple[str, ...]], *, hours: float, edits: int = 0
) -> str:
    url = URLS[key]
    doc = document_id(url)
    at = T0 + timedelta(hours=hours)
    archive.write_document(doc, {"url": url, "first_seen": at.isoformat().replace("+00:00", "Z")})
    title, blocks = text
    for n in range(edits + 1):
        lede = blocks[0] if n == 0 else f"{blocks[0]} The figures were revised {n} times."
        seen = observation(lede, *blocks[1:], title=title, at=at + timedelta(hours=n), url=url)
        archive.append_revision(doc, seen)
    return doc


def build(data: Path, out: Path) -> BuildReport:
    return build_site(BuildOptions(data=data, out=out, search=False, workers=1))


def test_three_outlets_one_edited_make_one_story_page_linked_from_the_article(
    tmp_path: Path,
) -> None:
    archive = Archive(tmp_path / "data")
    a = store(archive, "a", OUTLET_A, hours=0, edits=1)
    b = store(archive, "b", OUTLET_B, hours=1.5)
    store(archive, "strike", TRAIN_STRIKE, hours=2)
    store(archive, "museum", MUSEUM, hours=3)
    out = tmp_path / "site"
    report = build(tmp_path / "data", out)
    assert report.failures == ()
    page = out / f"stories/{a}/index.html"
    html = page.read_text(encoding="utf-8")
    assert OUTLET_A[0] in html and OUTLET_B[0] in html
    assert TRAIN_STRIKE[0] not in html and MUSEUM[0] not in html
    assert f'href="/articles/{a}/#r2"' in html
    assert URLS["b"] in html  # b was never edited: no page of its own, its address instead
    assert [p.name for p in (out / "stories").iterdir()] == [a]
    article = (out / f"articles/{a}/index.html").read_text(encoding="utf-8")
    assert f'href="/stories/{a}/"' in article

    again = build(tmp_path / "data", out)
    assert not [p for p in again.written if p.startswith(("stories/", "articles/"))]

    c = store(archive, "c", OUTLET_C, hours=7)
    later = build(tmp_path / "data", out)
    assert f"stories/{a}/index.html" in later.written
    assert OUTLET_C[0] in page.read_text(encoding="utf-8")
    assert not (out / f"articles/{c}").exists()
    assert b != c


def test_a_story_without_an_edit_or_with_one_outlet_gets_no_page(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    store(archive, "a", OUTLET_A, hours=0)
    store(archive, "b", OUTLET_B, hours=1.5)
    store(archive, "museum", MUSEUM, hours=3, edits=1)
    out = tmp_path / "site"
    assert build(tmp_path / "data", out).failures == ()
    assert not (out / "stories").exists()


def test_the_stories_cache_is_rewritten_only_where_it_changed_and_a_bad_one_is_rebuilt(
    tmp_path: Path,
) -> None:
    from quietedit.publish.paths import CACHE_DIR
    from quietedit.publish.stories import STORIES_FILE, StoryState

    archive = Archive(tmp_path / "data")
    a = store(archive, "a", OUTLET_A, hours=0, edits=1)
    store(archive, "b", OUTLET_B, hours=1.5)
    out = tmp_path / "site"
    build(tmp_path / "data", out)
    cache = out / CACHE_DIR
    state = StoryState.load(cache)
    assert len(state.documents) == 2 and state.documents[a].story == a
    assert all(len(d.sketch) == 32 for d in state.documents.values())
    first = (out / f"stories/{a}/index.html").read_bytes()
    (cache / STORIES_FILE).write_bytes(b"not a database")
    rebuilt = build(tmp_path / "data", out)
    assert rebuilt.failures == ()
    assert (out / f"stories/{a}/index.html").read_bytes() == first
    assert StoryState.load(cache).documents.keys() == state.documents.keys()


def test_an_hourly_build_keeps_the_story_of_documents_not_checked_out(tmp_path: Path) -> None:
    """The hourly build reads only the documents on disk: a story of documents whose
    partitions are not checked out keeps its page and its articles' links to it."""
    data = tmp_path / "data"
    archive = Archive(data)
    a = store(archive, "a", OUTLET_A, hours=0, edits=1)
    b = store(archive, "b", OUTLET_B, hours=1.5)
    out = tmp_path / "site"
    build(data, out)
    page = (out / f"stories/{a}/index.html").read_bytes()
    for n, doc in enumerate((a, b)):
        folder = archive.document_dir(doc).parent.parent  # its partition's folder
        if folder.is_dir():
            folder.rename(tmp_path / f"away-{n}")
    assert not archive.document_dir(a).parent.parent.is_dir()

    report = build(data, out)

    assert report.failures == () and report.rendered == 0
    assert not [p for p in report.removed if p.startswith(("stories/", "articles/"))]
    assert (out / f"stories/{a}/index.html").read_bytes() == page
    article = (out / f"articles/{a}/index.html").read_text(encoding="utf-8")
    assert f'href="/stories/{a}/"' in article
