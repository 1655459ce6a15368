"""The simulated newsrooms of ``bench/year.py``: outlets, stories, their edits, pages and feeds.

Thirty fictional outlets on loopback addresses (``127.0.0.2`` … ``127.0.0.31``, one fixed
port, since the port is part of every archived URL and so of every document id), each
publishing stories of 600-900 words of news-like English: Zipf-distributed words, names,
places, numbers and quotes, so the text compresses as real news does (zlib about 2.6x on a
story), not like a repeated sentence. Everything is a pure function of a story's seed and
version, so the archive the year writes and the pages the hourly run fetches agree without
keeping any text in memory: version 0 is the story as first published, version k has k
edits applied (a figure corrected, a paragraph rewritten, added or dropped, the headline
changed).

:func:`story_article` is what the product's extractor reads from :func:`story_page`
(checked by :func:`check_extraction` before a year is generated), so a re-check of an
unedited story finds it unchanged, as it would on a real site.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import format_datetime
from functools import lru_cache
from html import escape
from itertools import accumulate
from typing import Final

from quietedit.article.encoding import resolve_encoding
from quietedit.article.extract import extract_article
from quietedit.feeds.edits import EntrySnapshot
from quietedit.feeds.parse import parse_feed
from quietedit.model import JSON, Article, Block, Publisher, format_timestamp

PORT: Final = 28470
"""The newsrooms' port, fixed: it is part of every URL, so of every document id."""
FEED_ITEMS: Final = 50
"""Items per RSS feed: the outlet's newest stories (a typical news feed lists 20-100)."""

_SECTIONS: Final = ("news", "politics", "business", "world", "sport", "culture", "science")
_OUTLET_NAMES: Final = (
    "Harbour Gazette", "Northfield Courier", "Eastbrook Herald", "Valley Chronicle",
    "Coastline Post", "Riverside Record", "Highland Observer", "Capital Ledger",
    "Lakeside Times", "Midland Express", "Southport Daily", "Westgate Journal",
    "Granite City News", "Forest Vale Mercury", "Ironbridge Sentinel", "Bayview Tribune",
    "Stonehaven Press", "Marsh End Bulletin", "Kingsmoor Echo", "Oldcastle Advertiser",
    "Pinecrest Standard", "Redcliff Gazette", "Silverton Dispatch", "Thornbury Clarion",
    "Upton Reporter", "Willowmere Star", "Ashford Register", "Brackenridge Voice",
    "Cobalt Coast Review", "Dunmore Examiner",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Outlet:
    """One news site: its name, feed slug, loopback address and share of the stories."""

    index: int
    name: str
    weight: float

    @property
    def slug(self) -> str:
        return self.name.lower().replace(" ", "-")

    @property
    def address(self) -> str:
        return f"127.0.0.{self.index + 2}"

    def base(self, port: int) -> str:
        return f"http://{self.address}:{port}"

    def feed_url(self, port: int) -> str:
        return f"{self.base(port)}/feed.xml"


# big outlets publish far more than small ones (weights ~ 1/rank^0.8)
OUTLETS: Final = tuple(Outlet(n, name, 1 / (n + 1) ** 0.8) for n, name in enumerate(_OUTLET_NAMES))
OUTLET_WEIGHTS: Final = tuple(accumulate(outlet.weight for outlet in OUTLETS))

# -- words ------------------------------------------------------------------------------


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_FUNCTION: Final = _words(
    "the of to and a in that is for on was with said at by as from it has be have are an "
    "his her their which will not but this after who were its been had more than they one "
    "about over new two also would up into out when there last year could some other all "
    "before most against while under between three since first can only because where now "
    "those these them our we what during about any just many such may if so no through "
    "still even being four down told should much off years then how week back very well"
)
_CONTENT: Final = _words(
    "council budget minister government report police court election vote percent million "
    "people city region spokesperson officials statement hospital school investigation "
    "agreement opposition leader protest market prices energy climate housing water "
    "residents plan company workers union strike talks deal tax health care patients "
    "doctors nurses teachers pupils students university research scientists study data "
    "figures rise fall increase cut funding billion pounds euros dollars jobs economy "
    "inflation rates bank interest growth sales profits shares investors customers "
    "service services transport rail bus roads traffic airport flights passengers "
    "weather storm flooding rain wind coast river bridge building construction homes "
    "families children parents community local national international foreign border "
    "security defence army soldiers troops attack ceasefire peace negotiations talks "
    "president prime parliament party members campaign candidates poll results coalition "
    "law legislation bill proposal reform changes rules regulator authority agency "
    "department committee inquiry evidence trial judge jury sentence prison charges "
    "arrested suspect victim witnesses incident accident fire crash emergency services "
    "team season match game win defeat coach player goal league championship final "
    "festival film music theatre museum exhibition artist book author award audience "
    "technology internet software app users online digital phone network data privacy "
    "environment pollution emissions carbon wildlife farmers farms food supply shortage "
    "demand costs bills energy gas electricity power plant solar wind nuclear project "
    "district mayor board chief executive director manager chairman spokeswoman "
    "announced confirmed denied warned claimed agreed rejected approved launched "
    "expected planned reported described called added explained insisted admitted "
    "morning afternoon evening night monday tuesday wednesday thursday friday saturday "
    "sunday january february march april may june july august september october november "
    "december month months weeks days hours minutes time period decade history future "
    "public private political economic social cultural financial legal medical "
    "significant major serious important recent previous current former senior young "
    "old large small higher lower long short early late full open free clear"
)
_FIRST: Final = _words(
    "Anna James Maria David Sarah Thomas Laura Peter Emma Daniel Helen Michael Claire Paul "
    "Ruth Mark Alice John Fiona Robert Grace Simon Julia Andrew Nadia Omar Priya Tomas "
    "Ingrid Hugo Mei Kofi Elena Lars Amira Felix Rosa Yusuf Hester Callum"
)
_LAST: Final = _words(
    "Smith Jones Taylor Brown Williams Wilson Johnson Davies Robinson Wright Thompson Evans "
    "Walker White Roberts Green Hall Wood Jackson Clarke Patel Khan Lewis James Phillips "
    "Mason Hughes Price Turner Hill Moore Cooper Ward Morris King Baker Harris Vane Okafor "
    "Lindqvist Moreau Novak Petrov Sato Nakamura Rossi Costa Silva Fischer Weber Jansen"
)
_PLACE_PARTS: Final = (
    ("Marrow", "North", "East", "Kings", "Ash", "Bracken", "Stone", "Green", "Oak", "Mill",
     "Bridge", "Fen", "High", "Low", "Red", "White", "Black", "Elm", "Thorn", "Wolds"),
    ("by", "field", "wick", "ton", "ham", "ford", "bury", "mouth", "stead", "haven",
     "combe", "ley", "worth", "dale", "port", "minster"),
)  # fmt: skip
_PLACES: Final = tuple(a + b for a in _PLACE_PARTS[0] for b in _PLACE_PARTS[1])
_ROLES: Final = (
    "a spokesperson for the council", "the chief executive", "a senior official",
    "the opposition leader", "a local resident", "the head of the union",
    "an economist at the university", "the minister", "a police spokesperson",
    "the committee chair",
)  # fmt: skip


def _zipf(words: tuple[str, ...] | list[str], exponent: float) -> list[float]:
    return list(accumulate(1 / (rank + 1) ** exponent for rank in range(len(words))))


_FUNCTION_CUM: Final = _zipf(_FUNCTION, 1.0)
_CONTENT_CUM: Final = _zipf(_CONTENT, 0.7)


_NAMES: Final = tuple(f"{first} {last}" for first in _FIRST for last in _LAST)
_FIGURE: Final = "\0"
# one pool for every word of a story, drawn in a single call: function words 46 %,
# content words 42 %, names 5 %, places 4 %, figures 3 % (each group Zipf- or evenly spread)
_POOL: Final = (*_FUNCTION, *_CONTENT, *_NAMES, *_PLACES, _FIGURE)


def _shares(words: int, share: float, exponent: float) -> list[float]:
    weights = [1 / (rank + 1) ** exponent for rank in range(words)]
    return [share * weight / sum(weights) for weight in weights]


_POOL_CUM: Final = list(
    accumulate(
        [
            *_shares(len(_FUNCTION), 0.46, 1.0),
            *_shares(len(_CONTENT), 0.42, 0.7),
            *_shares(len(_NAMES), 0.05, 0.0),
            *_shares(len(_PLACES), 0.04, 0.0),
            0.03,
        ]
    )
)


def _sentences(rng: random.Random, words: int) -> list[str]:
    """About ``words`` words of news-like prose, as sentences."""
    drawn = rng.choices(_POOL, cum_weights=_POOL_CUM, k=words)
    sentences = []
    at = 0
    while at < len(drawn):
        length = rng.randint(12, 30)
        part = [_figure(rng) if w == _FIGURE else w for w in drawn[at : at + length]]
        at += length
        if len(part) > 3:
            part[len(part) // 2] += ","
        text = " ".join(part)
        text = text[0].upper() + text[1:] + "."
        if rng.random() < 0.12:
            text = f'"{text[:-1]}," said {rng.choice(_NAMES)}, {rng.choice(_ROLES)}.'
        sentences.append(text)
    return sentences


def _figure(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.4:
        return str(rng.randint(2, 99))
    if kind < 0.7:
        return f"{rng.randint(1, 999):,}"
    if kind < 0.85:
        return f"{rng.randint(1, 99)}.{rng.randint(0, 9)} percent"
    return str(rng.randint(1990, 2026))


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentences(rng, rng.randint(20, 70)))


def _headline(rng: random.Random) -> str:
    words = [rng.choices(_CONTENT, cum_weights=_CONTENT_CUM)[0] for _ in range(rng.randint(5, 9))]
    words.insert(rng.randrange(len(words)), rng.choice(_PLACES))
    return " ".join(words).capitalize()


# -- stories ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Story:
    """One article: where and when it appeared; its text comes from ``seed``."""

    number: int
    outlet: Outlet
    seed: int
    discovered_at: datetime
    published_at: datetime

    @property
    def section(self) -> str:
        return _SECTIONS[self.seed % len(_SECTIONS)]

    @property
    def author(self) -> str:
        return f"{_FIRST[self.seed % len(_FIRST)]} {_LAST[(self.seed >> 8) % len(_LAST)]}"

    def url(self, port: int) -> str:
        """The story's address (what the feed links to, canonical already)."""
        return _url(self, port)


@lru_cache(maxsize=65536)
def _url(story: Story, port: int) -> str:
    day = story.published_at.strftime("%Y/%m/%d")
    slug = "-".join(story_text(story.seed, 0).title.lower().split()[:6])
    return f"{story.outlet.base(port)}/{story.section}/{day}/{slug}-{story.number}"


@dataclass(frozen=True, slots=True)
class StoryText:
    """A story's text in one version: headline, paragraphs, and whether the page says it
    was updated (an acknowledged edit moves ``dateModified``; a silent one does not)."""

    title: str
    paragraphs: tuple[str, ...]
    acknowledged: int  # the number of the newest acknowledged edit, 0 for none


@lru_cache(maxsize=4096)
def story_text(seed: int, version: int) -> StoryText:
    """Version ``version`` of the story of ``seed``: the original with that many edits."""
    if version == 0:
        rng = random.Random(seed)
        title = _headline(rng)
        sentences = _sentences(rng, rng.randint(600, 900))
        paragraphs: list[str] = []
        while sentences:
            take = rng.choice((1, 2, 2, 2, 3, 3))
            paragraphs.append(" ".join(sentences[:take]))
            del sentences[:take]
        return StoryText(title, tuple(paragraphs), 0)
    before = story_text(seed, version - 1)
    rng = random.Random(seed * 1_000_003 + version)
    title, paragraphs = before.title, list(before.paragraphs)
    acknowledged = before.acknowledged
    kind = rng.random()
    where = rng.randrange(len(paragraphs))
    if kind < 0.35:  # a figure or a word corrected
        words = paragraphs[where].split(" ")
        spot = rng.randrange(len(words))
        words[spot] = _figure(rng) if rng.random() < 0.6 else rng.choice(_CONTENT)
        paragraphs[where] = " ".join(words)
    elif kind < 0.6:  # a paragraph rewritten
        paragraphs[where] = _paragraph(rng)
    elif kind < 0.8:  # paragraphs added (an update to a developing story)
        for _ in range(rng.randint(1, 3)):
            paragraphs.insert(rng.randrange(len(paragraphs) + 1), _paragraph(rng))
    elif kind < 0.9 and len(paragraphs) > 4:  # a paragraph dropped
        del paragraphs[where]
    else:  # the headline changed
        title = _headline(rng)
    if rng.random() < 0.4:
        acknowledged = version
    return StoryText(title, tuple(paragraphs), acknowledged)


def _iso(moment: datetime) -> str:
    return format_timestamp(moment)


def modified_at(story: Story, text: StoryText) -> datetime:
    """The page's ``dateModified``: an acknowledged edit's time is not kept, so the
    newsroom dates it by its number (minutes after publication): deterministic."""
    return story.published_at + timedelta(minutes=37 * text.acknowledged)


def story_article(story: Story, version: int, *, port: int) -> Article:
    """What the extractor reads from :func:`story_page` (see :func:`check_extraction`)."""
    text = story_text(story.seed, version)
    return Article(
        title=text.title,
        blocks=tuple(Block(paragraph) for paragraph in text.paragraphs),
        publisher=Publisher(
            canonical_url=story.url(port),
            headline=text.title,
            date_published=_iso(story.published_at),
            date_modified=_iso(modified_at(story, text)),
            authors=(story.author,),
            language="en",
        ),
    )


# -- pages and feeds ----------------------------------------------------------------------


@lru_cache(maxsize=64)
def _furniture(outlet: Outlet, page_kb: int) -> tuple[str, str]:
    """The outlet's page around the article (head scripts, mega-menu; footer link lists),
    about ``page_kb`` KB: what makes a real news page weigh 100-500 KB."""
    rng = random.Random(outlet.index)
    budget = page_kb * 1024
    script = "".join(f"var k{n:x}='{rng.getrandbits(128):032x}';" for n in range(budget // 100))
    menu = "".join(
        f'<li class="menu-item"><a href="/{_SECTIONS[n % len(_SECTIONS)]}/topic-{n}">'
        f"{rng.choice(_PLACES)} {rng.choice(_CONTENT)}</a></li>"
        for n in range(budget // 4 // 90)
    )
    links = "".join(
        f'<li><a href="/about/{n}">{rng.choice(_CONTENT).capitalize()} {n}</a></li>'
        for n in range(budget // 4 // 50)
    )
    head = f"<script>{script}</script>"
    nav = (
        f'<header class="masthead"><a class="logo" href="/">{outlet.name}</a>'
        f"<nav><ul>{menu}</ul></nav></header>"
    )
    footer = f'<footer class="site-footer"><ul>{links}</ul><p>© 2026 {outlet.name}</p></footer>'
    return head, nav + "\n@@MAIN@@\n" + footer


def story_page(story: Story, version: int, *, port: int, page_kb: int) -> bytes:
    """The story's page in ``version``, wrapped in the outlet's furniture."""
    text = story_text(story.seed, version)
    outlet = story.outlet
    head, body = _furniture(outlet, page_kb)
    url = story.url(port)
    paragraphs = "\n".join(f"<p>{escape(p)}</p>" for p in text.paragraphs)
    meta = (
        '{"@context":"https://schema.org","@type":"NewsArticle",'
        f'"headline":"{escape(text.title)}","datePublished":"{_iso(story.published_at)}",'
        f'"dateModified":"{_iso(modified_at(story, text))}",'
        f'"author":{{"@type":"Person","name":"{story.author}"}}}}'
    )
    main = (
        f'<main><article><p class="section"><a href="/{story.section}">{story.section}</a></p>'
        f"<h1>{escape(text.title)}</h1>"
        f'<p class="byline">By <a href="/authors/{story.seed % 997}">{story.author}</a></p>'
        f'<div class="article-body">\n{paragraphs}\n</div></article>'
        f'<aside class="most-read"><h2>Most read</h2><ol>'
        + "".join(
            f'<li><a href="/{story.section}/{n}">{rng_title(story.seed + n)}</a></li>'
            for n in range(5)
        )
        + "</ol></aside></main>"
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(text.title)} | {outlet.name}</title>"
        f'<link rel="canonical" href="{url}">'
        f'<script type="application/ld+json">{meta}</script>{head}</head>'
        f"<body>{body.replace('@@MAIN@@', main)}</body></html>"
    ).encode()


def rng_title(seed: int) -> str:
    return _headline(random.Random(seed ^ 0x5EED))


def feed_items(stories: list[Story]) -> list[tuple[Story, StoryText]]:
    return [(story, story_text(story.seed, 0)) for story in stories]


def summary(text: StoryText) -> str:
    """The feed's teaser: the lead paragraph's first sentence."""
    return text.paragraphs[0].split(". ")[0].rstrip(".") + "."


def feed_xml(outlet: Outlet, stories: list[Story], *, port: int, now: datetime) -> bytes:
    """The outlet's RSS feed: ``stories`` (its newest, newest first) as first published."""
    items = "".join(
        "<item>"
        f"<title>{escape(text.title)}</title><link>{story.url(port)}</link>"
        f'<guid isPermaLink="true">{story.url(port)}</guid>'
        f"<pubDate>{format_datetime(story.published_at, usegmt=True)}</pubDate>"
        f"<description>{escape(summary(text))}</description>"
        "</item>"
        for story, text in feed_items(stories)
    )
    return (
        f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
        f"<title>{escape(outlet.name)}</title><link>{outlet.base(port)}/</link>"
        f"<description>News from {escape(outlet.name)}</description>"
        f"<lastBuildDate>{format_datetime(now, usegmt=True)}</lastBuildDate>"
        f"{items}</channel></rss>"
    ).encode()


def entry_snapshot(story: Story, *, port: int) -> EntrySnapshot:
    """The feed record's snapshot of the story's entry, as a poll at its discovery
    records it (checked against the product's feed parser by :func:`check_extraction`)."""
    text = story_text(story.seed, 0)
    url = story.url(port)
    return EntrySnapshot(
        id=url,
        observed_at=story.discovered_at,
        title=text.title,
        summary=summary(text),
        link=url,
        published=format_datetime(story.published_at, usegmt=True),
    )


def page_encoding(*, port: int, page_kb: int, story: Story) -> dict[str, JSON]:
    """The encoding decision a revision records for the newsroom's pages (all alike)."""
    return resolve_encoding(
        story_page(story, 0, port=port, page_kb=page_kb), CONTENT_TYPE
    ).to_record()


CONTENT_TYPE: Final = "text/html; charset=utf-8"


def check_extraction(stories: list[Story], *, port: int, page_kb: int) -> None:
    """Raise ``RuntimeError`` unless the product reads the newsroom's pages and feeds as
    this module writes their records: the simulated archive must be what ingest would
    have stored, or every re-check in the hourly run would look like an edit."""
    for story in stories:
        for version in (0, 1, 2):
            page = story_page(story, version, port=port, page_kb=page_kb)
            got = extract_article(page, url=story.url(port), content_type=CONTENT_TYPE)
            want = story_article(story, version, port=port)
            if got != want:
                raise RuntimeError(
                    f"the extractor reads story {story.number} v{version} differently:\n"
                    f"  got  {got.title!r} {len(got.blocks)} blocks {got.publisher}\n"
                    f"  want {want.title!r} {len(want.blocks)} blocks {want.publisher}"
                )
    outlet = stories[0].outlet
    mine = [s for s in stories if s.outlet == outlet]
    now = max(s.discovered_at for s in mine)
    feed = parse_feed(feed_xml(outlet, mine, port=port, now=now), url=outlet.feed_url(port))
    for story, entry in zip(mine, feed.entries, strict=True):
        parsed = EntrySnapshot.of(entry, observed_at=story.discovered_at)
        if parsed != entry_snapshot(story, port=port):
            raise RuntimeError(f"the feed parser reads entry {story.number} as {parsed}")


def pick_outlet(rng: random.Random) -> Outlet:
    return rng.choices(OUTLETS, cum_weights=OUTLET_WEIGHTS)[0]
