"""Document ids are safe, bounded, case-proof file names for any URL."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from quietedit.article.identity import document_id, is_document_id


def test_id_names_the_host_and_hashes_the_whole_url() -> None:
    doc = document_id("https://www.News.example.org/politics/story?id=7")
    assert doc.startswith("www-news-example-org-")
    assert is_document_id(doc)
    assert doc != document_id("https://www.news.example.org/politics/story?id=8")


def test_urls_differing_only_in_case_get_ids_that_differ_in_more_than_case() -> None:
    upper = document_id("https://example.org/Story")
    lower = document_id("https://example.org/story")
    assert upper.lower() != lower.lower()


def test_hostile_urls_still_give_safe_ids() -> None:
    for url in ["../../../etc/passwd", "http://[::1", "", "javascript:alert(1)", "\x00/\\.."]:
        doc = document_id(url)
        assert is_document_id(doc), url
        assert doc.startswith("doc-")


def test_long_hosts_are_cut_to_a_bounded_id() -> None:
    doc = document_id("https://" + "a" * 60 + "." + "b" * 60 + ".example/x")
    assert len(doc) <= 57
    assert is_document_id(doc)


@given(st.text(alphabet=string.printable + "äöüßÅ日本\u202e", max_size=300))
def test_every_url_gives_a_safe_lowercase_bounded_id(url: str) -> None:
    doc = document_id(url)
    assert is_document_id(doc)
    assert doc == doc.lower()
    assert "/" not in doc and "." not in doc and "\\" not in doc
    assert len(doc) <= 57
    assert document_id(url) == doc
