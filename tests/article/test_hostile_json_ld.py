"""JSON-LD is attacker-controlled: an unpaired surrogate escape must not reach the archive."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quietedit.article.extract import extract_article
from quietedit.article.fingerprint import content_hash
from quietedit.article.metadata import _LONE_SURROGATE_ESCAPE, _load_json

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


@given(st.from_regex(_LONE_SURROGATE_ESCAPE))
def test_every_escape_the_repair_rewrites_opens_the_way_its_gate_looks_for(text: str) -> None:
    match = _LONE_SURROGATE_ESCAPE.search(text)
    assert match is not None
    assert match.group()[:3] in {"\\ud", "\\uD"}


def test_json_ld_is_read_as_json_loads_reads_it_trailing_commas_and_all() -> None:
    assert _load_json('{"headline": "Pier", "tags": [1, 2,],}') == {
        "headline": "Pier",
        "tags": [1, 2],
    }
    assert _load_json('{"a": 1} {"b": 2}') == [{"a": 1}, {"b": 2}]
    assert _load_json('\ufeff{"a": 1}') is None  # json.loads refuses a leading BOM too
    assert _load_json('{"a": "\\ud83d\\udea2 \\uDFFF"}') == {"a": "\U0001f6a2 \ufffd"}
