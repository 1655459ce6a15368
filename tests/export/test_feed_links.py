"""A feed entry's document: its link looked up among the archived documents' URLs, or
canonicalised (``quietedit.export.rows.document_of_link``)."""

from __future__ import annotations

import pytest

from quietedit.article import identity
from quietedit.article.identity import canonical_url, document_id
from quietedit.export.rows import document_of_link

URL = "https://news.example.com/2026/06/26/council-votes"
DOC = document_id(URL)


def test_a_link_that_is_a_document_s_url_is_not_canonicalised_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(url: str, **_: object) -> str:
        raise AssertionError(f"canonicalised {url}")

    monkeypatch.setattr("quietedit.export.rows.canonical_url", refuse)
    assert document_of_link(URL, {DOC}, {URL: DOC}) == DOC


@pytest.mark.parametrize(
    "link",
    [
        URL + "?utm_source=rss",  # tracking dropped
        "HTTPS://news.example.com/2026/06/26/council-votes#comments",
        "https://m.example.com/2026/06/26/council-votes",  # another document's, not known
    ],
)
def test_any_other_link_gets_the_id_its_canonical_url_makes(link: str) -> None:
    expected = document_id(canonical_url(link))
    assert document_of_link(link, None, {URL: DOC}) == expected
    assert document_of_link(link, {expected}, {URL: DOC}) == expected
    assert document_of_link(link, set(), {URL: DOC}) is None  # not archived


def test_a_url_recorded_for_another_id_is_not_trusted() -> None:
    # a document whose URL does not make its id (an older canonical form): the link is
    # canonicalised as ever
    assert document_of_link(URL, None, {URL: "news-example-com-0000000000000000"}) == DOC


def test_no_link_or_a_bad_one_names_no_document() -> None:
    assert document_of_link(None, None, {}) is None
    assert document_of_link("", None, {}) is None
    assert document_of_link("ftp://example.com/x", None, {}) is None
    assert identity.is_document_id(DOC)
