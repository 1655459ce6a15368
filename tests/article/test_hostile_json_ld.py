"""JSON-LD is attacker-controlled: an unpaired surrogate escape must not reach the archive."""

from __future__ import annotations

from quietedit.article.extract import extract_article
from quietedit.article.fingerprint import content_hash

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "NewsArticle",
 "headline": "Harbour %s reopens %s",
 "author": {"@type": "Person", "name": "Jo %s Reporter"},
 "datePublished": "2026-11-30T06:00:00Z"}
</script></head><body><main><article>
<p>The harbour reopened on Monday after three weeks of repairs to the northern pier.</p>
<p>Ferries to the islands will run to the summer timetable from Wednesday onwards.</p>
</article></main></body></html>"""


def page(*escapes: str) -> bytes:
    return (PAGE % escapes).encode()


def test_unpaired_surrogate_escapes_become_replacement_characters() -> None:
    article = extract_article(page("\\ud800", "\\uDC01", "\\udfff"), url="https://news.example/a")
    assert "\ufffd" in article.title
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in article.title)
    content_hash(article).encode("ascii")  # the hash is computed; no UnicodeEncodeError


def test_a_paired_escape_is_kept_as_the_character_it_names() -> None:
    article = extract_article(page("\\ud83d\\udea2", "", ""), url="https://news.example/a")
    assert "\U0001f6a2" in article.title
