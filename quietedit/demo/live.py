"""The demo newsroom's live blog: a storm followed post by post over the demo's rounds.

Each round publishes new posts at the top. In round 3 an earlier post is corrected (the
number of homes without power) while another post comes in: the one edit quietedit must
find among the live updates. The page is built like a real live blog: a key-points box,
posts as ``<article>``s with ids and ``<time>``s, relative times that change every round,
JSON-LD ``LiveBlogPosting``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from typing import Final

from quietedit.demo.stories import round_time

PATH: Final = "/news/live/storm-live-latest"
TITLE: Final = "Storm live: gales close the Swing Bridge and cut power on the islands"
EDIT: Final = (
    "a live blog: new posts every round are live updates; in round 3 an earlier post's "
    "figure is corrected, the one edit among them"
)


@dataclass(frozen=True, slots=True)
class Post:
    key: str
    at: datetime
    title: str
    text: str
    corrected: str | None = None  # its text from round 3 on


def _at(hour: int, minute: int) -> datetime:
    return datetime(2026, 11, 30, hour, minute, tzinfo=UTC)


POSTS: Final[tuple[tuple[int, Post], ...]] = (  # (the round it is published in, the post)
    (1, Post("post-101", _at(5, 10), "Gale warning for the coast",
             "The Met Office has issued an amber warning for gales along the Marrowby coast "
             "from early this morning until midnight.")),
    (1, Post("post-102", _at(5, 40), "Ferries cancelled",
             "All sailings to the Skerry Isles are cancelled for the day, the operator says; "
             "islanders are asked not to travel to the harbour.")),
    (1, Post("post-103", _at(5, 55), "Power cuts on the islands",
             "About 900 homes on the Skerry Isles have lost power after a line came down near "
             "the north landing, the network operator says.",
             corrected="About 1,400 homes on the Skerry Isles have lost power after a line "
             "came down near the north landing, the network operator says.")),
    (2, Post("post-104", _at(9, 20), "Swing Bridge closed",
             "Police have closed the Swing Bridge to all traffic after gusts of 70mph were "
             "recorded on the quay.")),
    (2, Post("post-105", _at(11, 5), "Rest centre opens",
             "The council has opened a rest centre at the Quay Street hall for anyone who has "
             "had to leave their home; hot food is being served.")),
    (3, Post("post-106", _at(15, 30), "Engineers reach the islands",
             "A repair crew crossed on the lifeboat this afternoon and expects to restore "
             "power to most homes by the evening.")),
    (4, Post("post-107", _at(21, 45), "Bridge reopens",
             "The Swing Bridge has reopened in both directions as the wind eases; the "
             "amber warning ends at midnight.")),
)  # fmt: skip


def live_page(round_number: int, base_url: str) -> str:
    """The live blog as it stands in ``round_number``."""
    now = round_time(round_number)
    posts = sorted(
        (post for published, post in POSTS if published <= round_number),
        key=lambda post: post.at,
        reverse=True,
    )
    blocks = []
    for post in posts:
        text = post.corrected if post.corrected and round_number >= 3 else post.text
        minutes = max(1, int((now - post.at).total_seconds() // 60))
        ago = f"{minutes} minutes ago" if minutes < 60 else f"{minutes // 60} hours ago"
        blocks.append(
            f'    <article class="post" id="{post.key}">\n'
            f'      <header><time datetime="{post.at.isoformat()}">{post.at:%H:%M}</time>'
            f' <span class="post-ago">{ago}</span></header>\n'
            f"      <h2>{escape(post.title)}</h2>\n"
            f"      <p>{escape(text)}</p>\n"
            "    </article>\n"
        )
    meta = {
        "@context": "https://schema.org",
        "@type": "LiveBlogPosting",
        "headline": TITLE,
        "coverageStartTime": _at(5, 0).isoformat(),
        "liveBlogUpdate": [
            {
                "@type": "BlogPosting",
                "headline": post.title,
                "datePublished": post.at.isoformat(),
                "url": f"{base_url}{PATH}#{post.key}",
            }
            for post in posts[:5]
        ],
    }
    return f"""<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>{escape(TITLE)} | The Harbour Gazette</title>
  <script type="application/ld+json">{json.dumps(meta, sort_keys=True)}</script>
</head>
<body>
  <header class="masthead"><a href="/">The Harbour Gazette</a></header>
  <main>
    <p class="live-badge">Live</p>
    <h1>{escape(TITLE)}</h1>
    <p class="standfirst">Gales of up to 70mph have closed the Swing Bridge, cancelled the island
      ferries and cut power to homes on the Skerry Isles.</p>
    <section class="key-points"><h2>Key points</h2><ul>
      <li>Amber warning for gales until midnight</li>
      <li>No ferries to the Skerry Isles today</li>
    </ul></section>
    <div class="live-stream">
{"".join(blocks)}    </div>
  </main>
  <footer><p><a href="/about">About us</a></p></footer>
</body>
</html>
"""
