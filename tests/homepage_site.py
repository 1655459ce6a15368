"""A news front page as a newsroom serves it, hour after hour: for the tests and the bench.

Cards as real fronts build them (an image link and a heading link to the same story, a
kicker, a teaser, a relative time that changes every poll, a comment count), a "most read"
list repeating stories with shorter titles, section links, a masthead and a footer. Each
story has one headline or several (an A/B test serves them in turn, a retitle switches for
good), and comes onto the page and leaves it at given hours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

START = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Story:
    """A story on the front: its path, its headlines by hour, the hours it is shown."""

    path: str
    headlines: Sequence[str]  # one, or the variants served in turn (A/B) by hour
    first_hour: int = 0
    last_hour: int = 10_000
    retitled: tuple[int, str] | None = None  # from this hour on, this headline for good
    kicker: str = "News"

    def headline(self, hour: int) -> str:
        if self.retitled is not None and hour >= self.retitled[0]:
            return self.retitled[1]
        return self.headlines[hour % len(self.headlines)]

    def shown(self, hour: int) -> bool:
        return self.first_hour <= hour <= self.last_hour


def article_page(story: Story, hour: int) -> str:
    """The story's own page (what the archive fetches)."""
    body = "".join(
        f"<p>{escape(story.headline(hour))} — paragraph {n} of the report, with enough words "
        "to read as the body of a news article rather than a caption or a label.</p>"
        for n in range(1, 5)
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{escape(story.headline(hour))} | Northern Chronicle</title></head><body>"
        "<header><a href='/'>Northern Chronicle</a></header><main><article>"
        f"<h1>{escape(story.headline(hour))}</h1>{body}</article></main></body></html>"
    )


def front_page(stories: Sequence[Story], hour: int) -> str:
    """The front page at ``hour``: every story shown then, as a card, and a most-read list."""
    shown = [s for s in stories if s.shown(hour)]
    cards = []
    for index, story in enumerate(shown):
        minutes = (index * 7 + hour * 13) % 59 + 1
        cards.append(
            '<div class="card">'
            f'<a class="card__media" href="{story.path}?INTCMP=hp" aria-hidden="true" '
            f'tabindex="-1"><img src="/img/{index}.jpg" alt="Picture for story {index}"></a>'
            f'<h3 class="card__headline"><a href="{story.path}?INTCMP=hp">'
            f'<span class="card__kicker">{escape(story.kicker)}</span> '
            f"<span>{escape(story.headline(hour))}</span></a></h3>"
            '<p class="card__standfirst">What we know so far, and what happens next.</p>'
            f'<aside class="card__meta"><span class="card__age">{minutes} minutes ago</span>'
            f' <a href="{story.path}#comments">{minutes * 3} comments</a></aside></div>'
        )
    most_read = "".join(
        f'<li><a href="{story.path}"><span class="rank">{n}</span> '
        f"{escape(story.headline(hour).split(':')[0][:24])} and more</a></li>"
        for n, story in enumerate(shown[:3], start=1)
    )
    return (
        "<!doctype html><html lang='en-GB'><head><meta charset='utf-8'>"
        "<title>Northern Chronicle: news from the north-east</title></head><body>"
        "<header class='masthead'><a href='/'>Northern Chronicle</a><nav>"
        "<a href='/news'>News</a> <a href='/sport'>Sport</a></nav></header>"
        f"<main><section class='headlines'>{''.join(cards)}</section>"
        f"<aside class='most-read'><h2>Most read</h2><ol>{most_read}</ol></aside></main>"
        "<footer><a href='/about'>About us</a></footer></body></html>"
    )
