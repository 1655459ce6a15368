"""Share images: a real build of the fixture archive, the PNGs decoded with Pillow, the
link-card tags parsed from the pages, the window of ``settings.site.share_days`` moved by
a newer observation, and hostile text drawn without a crash."""

from __future__ import annotations

import dataclasses
import io
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from selectolax.lexbor import LexborHTMLParser

from quietedit.archive.store import Archive
from quietedit.model import Article
from quietedit.publish import BuildOptions, BuildReport, build_site
from quietedit.publish.paths import CACHE_DIR
from quietedit.publish.share import (
    FONTS,
    HEIGHT,
    WIDTH,
    ShareCard,
    alt_text,
    drawable,
    render_card,
    share_cutoff,
)
from quietedit.revisions import Observation
from tests.publish.conftest import BASE_URL, HOSTILE_TITLE, SOURCES, STORIES, T0, write_archive


def build(data: Path, out: Path, **kwargs: Any) -> BuildReport:
    options = BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False)
    report = build_site(dataclasses.replace(options, **kwargs))
    assert not report.failures, report.failures
    return report


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and CACHE_DIR not in p.parts
    }


def card_tags(page: Path) -> dict[str, str]:
    """The page's Open Graph and X meta tags, by property or name."""
    tree = LexborHTMLParser(page.read_text("utf-8"))
    found = {}
    for meta in tree.css("meta"):
        key = meta.attributes.get("property") or meta.attributes.get("name") or ""
        if key.startswith(("og:", "twitter:")):
            found[key] = meta.attributes.get("content") or ""
    return found


def images(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("share.png"))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_archive(root)
    return root


def add_late_revision(data: Path, *, days: int) -> str:
    """A revision of the minister interview ``days`` after the fixture's edits."""
    archive = Archive(data)
    doc = next(d for d in archive.document_ids() if d.startswith("www-example-net"))
    last = archive.revisions(doc)[-1]
    archive.append_revision(
        doc,
        Observation(
            url=STORIES[1].url,
            observed_at=T0 + timedelta(days=days),
            article=Article(
                "Minister rules out tax rises this year",
                last.article.blocks,
                last.article.publisher,
            ),
            extractor="tests/1",
        ),
    )
    return doc


def test_every_recent_edit_gets_a_decodable_small_1200x630_palette_png(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    found = images(out)
    assert len(found) == 4  # one per edit: all within the 7 days of the newest observation
    for path in found:
        raw = (out / path).read_bytes()
        assert len(raw) < 12_000
        assert raw[24] == 4  # IHDR's bit depth: a 4-bit palette
        with Image.open(io.BytesIO(raw)) as image:
            assert image.format == "PNG"
            assert image.size == (WIDTH, HEIGHT)
            assert image.mode == "P"
            assert len(image.getcolors() or []) <= 10  # flat colours: no antialiased shades
            assert not image.info.keys() - {"dpi"}  # no text chunks, no time, no gamma
            image.load()


def test_the_permalink_and_the_article_page_carry_the_edit_card(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    bridge = next(p for p in images(out) if p.endswith("/diff/3/share.png"))
    folder = bridge.removesuffix("share.png")
    tags = card_tags(out / folder / "index.html")
    assert tags["og:image"] == BASE_URL + bridge
    assert tags["og:url"] == BASE_URL + folder
    assert tags["og:image:width"] == "1200" and tags["og:image:height"] == "630"
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:title"] == "Elm river bridge approved despite cost doubts"
    alt = tags["og:image:alt"]
    # the image's content in words: outlet, headline, old headline, kinds, verdict
    assert alt.startswith("The Example Courier \N{EN DASH} World: “Elm river bridge approved")
    assert "Headline changed from “Council approves Elm river bridge”" in alt
    assert "Verdict: noted" in alt and "headline" in alt
    # the article page names its newest edit's image
    article = card_tags(out / folder.split("diff/")[0] / "index.html")
    assert article["og:image"] == BASE_URL + bridge
    assert article["twitter:card"] == "summary_large_image"
    # the edit before it has its own card on its own permalink
    earlier = card_tags(out / folder.replace("/diff/3/", "/diff/2/") / "index.html")
    assert earlier["og:image"].endswith("/diff/2/share.png")
    assert "[removed: 48] [added: 84]" in earlier["og:image:alt"]
    assert "Verdict: silent" in earlier["og:image:alt"]


def test_images_are_the_same_bytes_every_build_and_drawn_once(data: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    build(data, first)
    build(data, second)
    one, two = tree(first), tree(second)
    assert {p: one[p] for p in images(first)} == {p: two[p] for p in images(second)}
    again = build(data, first)  # nothing changed: nothing drawn or written
    assert not [p for p in again.written if p.endswith(".png")]
    doc = add_late_revision(data, days=1)
    changed = build(data, first)
    drawn = [p for p in changed.written if p.endswith(".png")]
    assert drawn == [f"articles/{doc}/diff/3/share.png"]  # the new edit's only


def test_edits_outside_the_window_lose_their_images_and_card_tags(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(data, out)
    doc = add_late_revision(data, days=20)  # the newest observation moves 20 days on
    report = build(data, out)
    assert images(out) == [f"articles/{doc}/diff/3/share.png"]
    assert sum(p.endswith("share.png") for p in report.removed) == 4
    for page in out.glob("articles/*/diff/*/index.html"):
        tags = card_tags(page)
        if page.parent.name == "3" and page.parent.parent.parent.name == doc:
            assert tags["og:image"].endswith(f"{doc}/diff/3/share.png")
        else:
            assert "og:image" not in tags and "twitter:card" not in tags, page
    for page in out.glob("articles/*/index.html"):
        assert ("og:image" in card_tags(page)) == (page.parent.name == doc), page
    # the hourly result is the full build's, byte for byte
    full = tmp_path / "full"
    build(data, full, full=True)
    assert tree(out) == tree(full)


def test_share_days_zero_makes_no_image_and_removes_those_made(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    build(data, out, share_days=0)
    assert images(out) == []
    assert not any("og:image" in card_tags(p) for p in out.rglob("index.html"))


def test_the_window_counts_from_the_newest_observation_not_the_clock() -> None:
    assert share_cutoff("2026-11-28T16:30:00Z", 14) == "2026-11-14T16:00:00Z"
    assert share_cutoff("2026-11-28T00:00:00.5+01:00", 7) == "2026-11-20T23:00:00Z"
    assert share_cutoff("2026-11-28T16:30:00Z", 0) is None
    assert share_cutoff("", 14) is None


CARD = ShareCard(
    outlet="Süddeutsche Zeitung",
    headline="Bürgermeisterin räumt Fehler bei der Haushaltsplanung ein",
    old_headline="",
    excerpt=(("=", "Die Stadt muss "), ("-", "48,6 "), ("+", "52 "), ("=", "Millionen Euro …")),
    kinds=("facts",),
    verdict="silent",
    observed="2026-12-01",
    site="quietedit",
)


@pytest.mark.parametrize(
    "card",
    [
        CARD,
        dataclasses.replace(CARD, headline="서울시, 내년 예산 45조원 편성", outlet="연합뉴스"),
        dataclasses.replace(CARD, headline="W" * 100_000, excerpt=(("+", "x" * 100_000),)),
        dataclasses.replace(CARD, headline="a\x00b\x1b[31mc\u202ed\u200fe\ufeff\r\n\tf"),
        dataclasses.replace(CARD, headline="مرحبا بالعالم — שלום עולם 🎉🔥👍🏽", outlet=""),
        dataclasses.replace(CARD, excerpt=(), kinds=(), verdict="technical notice"),
        dataclasses.replace(CARD, old_headline="Ein alter Titel, " * 40),
    ],
    ids=["german", "korean", "huge", "control", "rtl-emoji", "empty", "long-old"],
)
def test_any_card_draws_as_a_1200x630_png_with_the_same_bytes_twice(card: ShareCard) -> None:
    raw = render_card(card)
    assert raw == render_card(card)
    with Image.open(io.BytesIO(raw)) as image:
        assert image.size == (WIDTH, HEIGHT)
        image.load()


def test_a_script_the_fonts_lack_is_said_in_words_not_drawn_as_boxes() -> None:
    assert all(drawable(c) for c in "äöüßÄÖÜéèêëçàâîïôûœÆØÅłőűčšžğış€\N{EN DASH}—„“”«»…")
    assert not any(drawable(c) for c in "서울한국ไทยالعالم🎉")
    korean = dataclasses.replace(CARD, headline="서울시, 내년 예산 45조원 편성")
    # any headline mostly in such a script gives the same notice, never a row of boxes
    assert render_card(korean) == render_card(dataclasses.replace(korean, headline="한국어 제목"))
    assert render_card(korean) != render_card(dataclasses.replace(korean, headline="Seoul"))
    assert "“서울시, 내년 예산 45조원 편성”" in alt_text(korean)  # the words are in the alt text


def test_alt_text_says_what_the_image_shows() -> None:
    alt = alt_text(dataclasses.replace(CARD, old_headline="Haushalt: Fehler eingeräumt"))
    assert alt == (
        "Süddeutsche Zeitung: “Bürgermeisterin räumt Fehler bei der Haushaltsplanung ein”. "
        "Headline changed from “Haushalt: Fehler eingeräumt”. "
        "Changed text: “Die Stadt muss [removed: 48,6] [added: 52] Millionen Euro …”. "
        "Kinds: facts. Verdict: silent. Seen 2026-12-01 by quietedit."
    )
    hostile = alt_text(dataclasses.replace(CARD, headline="x\x00y" + "z" * 5000))
    assert "\x00" not in hostile and len(hostile) <= 1400


def test_the_bundled_fonts_are_small_and_licensed() -> None:
    fonts = sorted(FONTS.glob("*.ttf"))
    assert [f.name for f in fonts] == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"]
    assert sum(f.stat().st_size for f in fonts) < 200_000
    licence = (FONTS / "LICENSE").read_text("utf-8")
    assert "Bitstream" in licence and "DejaVu" in licence


def test_a_hostile_headline_is_escaped_in_the_card_tags(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out)
    mayor = next(out.glob("articles/blog-example-com-*/diff/2/index.html"))
    raw = mayor.read_text("utf-8")
    assert "<script>" not in raw and "<img" not in raw
    tags = card_tags(mayor)
    assert tags["og:title"] == HOSTILE_TITLE
    assert f"“{HOSTILE_TITLE}”" in tags["og:image:alt"]
    with Image.open(mayor.parent / "share.png") as image:
        assert image.size == (WIDTH, HEIGHT)
