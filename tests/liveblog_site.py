"""A live blog as a newsroom serves it, round after round: for the tests and the bench.

The page is built the way real live blogs are: site navigation, a headline and standfirst,
a key-points box, then the stream of posts newest first, each an ``<article>`` with an id,
a header holding its ``<time datetime>`` and a relative "12 minutes ago", a title, its
paragraphs, a share bar; an inline ad slot between posts; "Load older posts" once the page
shows only its newest posts; JSON-LD ``LiveBlogPosting`` with the newest posts as
``liveBlogUpdate`` (or none, for a live blog only its markup shows).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html import escape

START = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
TITLE = "Storm Ida live: bridge closed, thousands without power"
PATH = "/news/live/storm-ida-latest"

PLACES = ("Gateshead", "Hexham", "Durham", "Alnwick", "Morpeth", "Sunderland", "Consett")
WHAT = (
    "Engineers from Northern Powergrid say {n},{m}00 homes in {place} are still without "
    "electricity and that most should be reconnected by the evening.",
    "Police in {place} have closed the coast road after a tree came down across both "
    "lanes; drivers are asked to use the A{n}{m} instead.",
    "The Met Office recorded gusts of {n}{m}mph in {place} in the last hour and keeps its "
    "amber warning in place until {n}pm.",
    "Volunteers at the {place} rest centre have served {n}{m}0 hot meals since the morning "
    "and are asking for blankets and phone chargers.",
)


@dataclass
class Post:
    """One post of the stream."""

    key: str
    at: datetime
    title: str
    paragraphs: list[str]


def make_post(number: int) -> Post:
    """The ``number``-th post, written 15 minutes times ``number`` after the start."""
    place = PLACES[number % len(PLACES)]
    n, m = number % 9 + 1, (number * 7) % 10
    text = WHAT[number % len(WHAT)].format(n=n, m=m, place=place)
    return Post(
        key=f"block-{number:04d}",
        at=START + timedelta(minutes=15 * number),
        title=f"Update from {place}",
        paragraphs=[text, f"Our reporter in {place} says conditions are changing quickly."],
    )


@dataclass
class LiveBlog:
    """The live blog's state; :meth:`page` renders it as seen at a moment."""

    posts: list[Post] = field(default_factory=list)  # newest first
    key_points: list[str] = field(
        default_factory=lambda: [
            "The high-level bridge is closed to all traffic",
            "Thousands of homes are without power across the region",
            "Rail services north of Durham are suspended",
        ]
    )
    shown: int = 20  # posts on the page; older ones are on "Load older posts"
    declared: bool = True  # JSON-LD LiveBlogPosting

    def add(self, number: int) -> Post:
        post = make_post(number)
        self.posts.insert(0, post)
        return post

    def page(self, now: datetime) -> str:
        posts = self.posts[: self.shown]
        blocks = []
        for index, post in enumerate(posts):
            minutes = max(0, int((now - post.at).total_seconds() // 60))
            ago = f"{minutes} minutes ago" if minutes < 60 else f"{minutes // 60} hours ago"
            body = "".join(f"<p>{escape(p)}</p>" for p in post.paragraphs)
            blocks.append(
                f'<article class="block" id="{post.key}">'
                f'<header class="block-header"><time datetime="{post.at.isoformat()}">'
                f'{post.at:%H:%M}</time> <span class="block-ago">{ago}</span></header>'
                f'<h2 class="block-title">{escape(post.title)}</h2>'
                f'<div class="block-body">{body}</div>'
                '<footer class="block-share"><button>Share this post</button>'
                f'<a href="#{post.key}">Copy link</a></footer></article>'
            )
            if index == 2:
                blocks.append('<div class="ad-slot" data-slot="inline-1">Advertisement</div>')
        older = (
            '<button class="load-older">Load older posts</button>'
            if len(self.posts) > self.shown
            else ""
        )
        points = "".join(f"<li>{escape(p)}</li>" for p in self.key_points)
        return (
            "<!doctype html><html lang='en-GB'><head><meta charset='utf-8'>"
            f"<title>{escape(TITLE)} | Northern Chronicle</title>"
            f"{self._json_ld(posts, now)}</head><body>"
            "<header class='site-header'><a href='/'>Northern Chronicle</a><nav><ul>"
            "<li><a href='/news'>News</a></li><li><a href='/sport'>Sport</a></li>"
            "</ul></nav></header>"
            "<main><div class='live-header'><span class='live-badge'>LIVE</span>"
            f"<h1>{escape(TITLE)}</h1><p class='standfirst'>Winds of up to 90mph have "
            "brought down trees and power lines across the north-east.</p>"
            f"<p class='updated'>Updated <time datetime='{now.isoformat()}'>"
            f"{now:%H:%M}</time></p></div>"
            f"<section class='key-points'><h2>Key points</h2><ul>{points}</ul></section>"
            f"<div class='live-stream'>{''.join(blocks)}{older}</div></main>"
            "<footer class='site-footer'><p>© Northern Chronicle. All rights reserved.</p>"
            "</footer></body></html>"
        )

    def _json_ld(self, posts: list[Post], now: datetime) -> str:
        if not self.declared:
            return ""
        data = {
            "@context": "https://schema.org",
            "@type": "LiveBlogPosting",
            "headline": TITLE,
            "coverageStartTime": START.isoformat(),
            "dateModified": now.isoformat(),
            "liveBlogUpdate": [
                {
                    "@type": "BlogPosting",
                    "headline": post.title,
                    "datePublished": post.at.isoformat(),
                    "url": f"https://news.example.org{PATH}#{post.key}",
                    "articleBody": " ".join(post.paragraphs),
                }
                for post in posts[:10]
            ],
        }
        return f'<script type="application/ld+json">{json.dumps(data)}</script>'
