"""The demo newsroom served on loopback: an RSS feed, robots.txt, a front page and the articles.

Pages carry the furniture of a real news site (navigation, byline, JSON-LD, a "most read"
box, an ad slot, a footer), and the furniture changes every round, as it does on real sites,
so the demo shows that it never makes a revision. Everything a response holds is a function
of the round, including the ``Date`` header (the simulated clock), so the archive's bytes
are the same on every run.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from datetime import datetime
from email.utils import format_datetime
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Final

from quietedit.demo import live as live_blog
from quietedit.demo.stories import Story, Version, round_time

logger = logging.getLogger(__name__)

HOST: Final = "127.0.0.1"
PORT: Final = 28461
"""A fixed port, because the port is part of every archived URL and so of every document id:
a port picked by the system would give a different archive on each run. Below the usual
ephemeral ranges (Linux 32768+, IANA 49152+) so a client socket rarely holds it."""
NAME: Final = "The Harbour Gazette"
MARATHON_AB: Final = (
    "marathon-route-changes",
    "Seafront off the marathon route as sea wall is rebuilt",
)
"""The story the front page A/B tests, and the headline it shows in even rounds."""
ROBOTS: Final = "User-agent: *\nDisallow: /search\nDisallow: /account/\n"


class Newsroom:
    """The newsroom's pages in the current ``round``, served from a background thread.

    Use as a context manager: it listens on ``HOST:PORT`` (or, if that port is taken, on a
    port the system picks, with a warning that the archive's URLs will differ).
    """

    def __init__(self, stories: Sequence[Story]) -> None:
        self.stories = tuple(stories)
        self.round = 1
        self._server = _bind(self)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self._server.server_address[1]}"

    @property
    def feed_url(self) -> str:
        return f"{self.base_url}/feed.xml"

    def __enter__(self) -> Newsroom:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def respond(self, path: str) -> tuple[int, str, str]:
        """(status, content type, body) for ``path`` in the current round."""
        if path == "/robots.txt":
            return 200, "text/plain; charset=utf-8", ROBOTS
        if path == "/feed.xml":
            return 200, "application/rss+xml; charset=utf-8", self.feed()
        if path == "/":
            return 200, "text/html; charset=utf-8", self.front()
        if path == live_blog.PATH:
            return 200, "text/html; charset=utf-8", live_blog.live_page(self.round, self.base_url)
        for number, story in enumerate(self.stories):
            if path == story.path:
                version = story.in_round(self.round)
                if version is not None:
                    return 200, "text/html; charset=utf-8", self.page(number, story, version)
        return 404, "text/html; charset=utf-8", self.not_found()

    def feed(self) -> str:
        """The RSS feed: the stories still up, newest first."""
        items = []
        live = [(s, s.in_round(self.round)) for s in self.stories]
        for story, version in sorted(live, key=lambda pair: pair[0].published, reverse=True):
            if version is None:
                continue
            url = self.base_url + story.path
            items.append(
                "    <item>\n"
                f"      <title>{escape(version.headline)}</title>\n"
                f"      <link>{url}</link>\n"
                f'      <guid isPermaLink="true">{url}</guid>\n'
                f"      <dc:creator>{escape(story.author)}</dc:creator>\n"
                f"      <category>{story.section}</category>\n"
                f"      <pubDate>{_http_date(story.published)}</pubDate>\n"
                f"      <description>{escape(version.summary)}</description>\n"
                "    </item>\n"
            )
        url = self.base_url + live_blog.PATH
        items.append(
            "    <item>\n"
            f"      <title>{escape(live_blog.TITLE)}</title>\n"
            f"      <link>{url}</link>\n"
            f'      <guid isPermaLink="true">{url}</guid>\n'
            f"      <pubDate>{_http_date(round_time(1))}</pubDate>\n"
            "    </item>\n"
        )
        return (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
            "  <channel>\n"
            f"    <title>{NAME}</title>\n"
            f"    <link>{self.base_url}/</link>\n"
            "    <description>News from Marrowby and the Skerry Isles</description>\n"
            "    <language>en-gb</language>\n"
            f"    <lastBuildDate>{_http_date(round_time(self.round))}</lastBuildDate>\n"
            f"{''.join(items)}"
            "  </channel>\n"
            "</rss>\n"
        )

    def front(self) -> str:
        """The front page: a card per story still up, with the headline the front gives it
        (the marathon story's is A/B tested: the front shows its two headlines in turn),
        a relative time that changes every round and a "most read" list."""
        cards = []
        shown = [(s, v) for s in self.stories if (v := s.in_round(self.round)) is not None]
        for number, (story, version) in enumerate(shown):
            headline = version.headline
            if story.slug == MARATHON_AB[0] and self.round % 2 == 0:
                headline = MARATHON_AB[1]
            cards.append(
                f'    <article class="card">\n'
                f'      <a class="card__image" href="{story.path}?ref=front" aria-hidden="true" '
                f'tabindex="-1"><img src="/img/{story.slug}.jpg" alt=""></a>\n'
                f'      <h2 class="card__headline"><a href="{story.path}?ref=front">'
                f'<span class="card__kicker">{story.section}</span> {escape(headline)}</a></h2>\n'
                f'      <p class="card__summary">{escape(version.summary)}</p>\n'
                f'      <p class="card__meta"><span class="card__age">'
                f"{(number * 11 + self.round * 17) % 50 + 2} minutes ago</span></p>\n"
                "    </article>\n"
            )
        return f"""<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>{NAME}: news from Marrowby and the Skerry Isles</title>
</head>
<body>
  <header class="masthead">
    <a class="logo" href="/">{NAME}</a>
    <nav><a href="/news">News</a> <a href="/health">Health</a> <a href="/sport">Sport</a></nav>
  </header>
  <main>
{"".join(cards)}  </main>
  <footer><p><a href="/about">About us</a> · <a href="/contact">Contact</a></p></footer>
</body>
</html>
"""

    def page(self, number: int, story: Story, version: Version) -> str:
        """An article page wrapped in furniture that changes from round to round."""
        r = self.round
        others = [s for s in self.stories if s is not story]
        # the "most read" box and the ad slot churn every round, as on a real site
        shift = (number + r) % len(others)
        most_read = (others[shift:] + others[:shift])[:4]
        related = "\n".join(
            f'          <li><a href="{s.path}?ref=most-read-{r}">'
            f"{escape(_first_headline(s))}</a></li>"
            for s in most_read
        )
        body = "\n".join(f"        <p>{escape(text)}</p>" for text in version.paragraphs)
        slot = f"hg-{story.section.lower()}-{r:02d}{number:02d}-a7"
        meta = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "headline": version.headline,
            "datePublished": _iso(story.published),
            "dateModified": _iso(version.modified),
            "author": {"@type": "Person", "name": story.author},
            "publisher": {"@type": "NewsMediaOrganization", "name": NAME},
            "mainEntityOfPage": self.base_url + story.path,
        }
        return f"""<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>{escape(version.headline)} | {NAME}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="{escape(version.summary)}">
  <link rel="canonical" href="{self.base_url}{story.path}">
  <script type="application/ld+json">{json.dumps(meta, sort_keys=True)}</script>
  <script>window.gazetteAds = {{slot: "{slot}"}};</script>
</head>
<body>
  <header class="masthead">
    <a class="logo" href="/">{NAME}</a>
    <nav>
      <a href="/news">News</a> <a href="/health">Health</a> <a href="/education">Education</a>
      <a href="/business">Business</a> <a href="/sport">Sport</a> <a href="/account/">Sign in</a>
    </nav>
  </header>
  <main>
    <article>
      <p class="section"><a href="/{story.section.lower()}">{story.section}</a></p>
      <h1>{escape(version.headline)}</h1>
      <p class="byline">By <a href="/authors/{_slug(story.author)}">{story.author}</a>,
        <time datetime="{_iso(story.published)}">{story.published:%d %B %Y %H:%M}</time></p>
      <div class="article-body">
{body}
      </div>
      <p class="share">Share this story: <a href="/share?to=mail">Email</a></p>
    </article>
    <aside class="most-read">
      <h2>Most read</h2>
      <ol>
{related}
      </ol>
    </aside>
    <div class="ad" id="ad-{r * 7919 + number * 104729:08x}">Advertisement</div>
  </main>
  <footer>
    <p><a href="/about">About us</a> · <a href="/contact">Contact</a> ·
      <a href="/corrections">Corrections policy</a></p>
    <p>© 2026 {NAME}, Marrowby. All rights reserved.</p>
  </footer>
</body>
</html>
"""

    def not_found(self) -> str:
        return (
            "<!doctype html>\n<html lang='en-GB'><head><meta charset='utf-8'>"
            f"<title>Page not found | {NAME}</title></head>\n<body><h1>Page not found</h1>"
            "<p>The page you asked for does not exist or has been removed.</p></body></html>\n"
        )


def _bind(newsroom: Newsroom) -> ThreadingHTTPServer:
    handler = _handler(newsroom)
    try:
        return ThreadingHTTPServer((HOST, PORT), handler)
    except OSError as exc:
        logger.warning(
            "port %d is taken (%s); the demo newsroom listens on another port, so its URLs "
            "and the archive differ from a standard demo run",
            PORT,
            exc,
        )
        return ThreadingHTTPServer((HOST, 0), handler)


def _handler(newsroom: Newsroom) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "GazetteServer/1.0"
        sys_version = ""

        def do_GET(self) -> None:
            status, kind, text = newsroom.respond(self.path.split("?", 1)[0])
            body = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def date_time_string(self, timestamp: float | None = None) -> str:
            return _http_date(round_time(newsroom.round))

        def log_message(self, format: str, *args: object) -> None:
            logger.debug("newsroom: " + format, *args)

    return Handler


def _first_headline(story: Story) -> str:
    return next(v.headline for v in story.rounds if v is not None)


def _http_date(moment: datetime) -> str:
    return format_datetime(moment, usegmt=True)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")
