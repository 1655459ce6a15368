"""A ``<meta>`` charset past the prescan's 1024 bytes: browsers re-decode, and so do we.

In the spirit of html5lib-tests' encoding tests (which expect, after a full parse, the
encoding of a ``<meta>`` behind comments of 1025 to 8193 characters): the cases here are
written for this project.
"""

from __future__ import annotations

import pytest

from quietedit.article.encoding import resolve_encoding
from quietedit.article.encoding_late import late_meta
from quietedit.article.extract import extract_article


def padded(length: int, tail: bytes) -> bytes:
    """A comment of ``length`` characters in all, then ``tail``."""
    opening = f"<!-- {length} characters ".encode()
    filler = b"x" * (length - len(opening) - len(b"z-->"))
    return opening + filler + b"z-->\n" + tail


@pytest.mark.parametrize("length", [1025, 2048, 2049, 4096, 4097, 8192, 8193])
def test_a_meta_behind_a_long_comment_decides_the_encoding(length: int) -> None:
    body = padded(length, b'<meta charset="iso8859-2">')
    decision = resolve_encoding(body, "text/html")
    assert (decision.encoding, decision.source, decision.overruled) == (
        "iso-8859-2",
        "late-meta",
        (),
    )


def test_the_page_is_re_decoded_in_the_late_encoding() -> None:
    text = "Zażółć gęślą jaźń: rada miasta przyjęła budżet."
    body = (
        b"<!doctype html><html><head><style>"
        + b"p{margin:0} " * 120
        + b'</style><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">'
        + b"<title>Bud\xbfet</title></head><body><article><h1>Bud\xbfet miasta</h1><p>"
        + text.encode("iso-8859-2")
        + b" To jest akapit z tre\xb6ci\xb1 artyku\xb3u, dostatecznie d\xb3ugi.</p>"
        + b"</article></body></html>"
    )
    article = extract_article(body, url="https://news.example/a", content_type="text/html")
    assert article.title == "Budżet miasta"
    assert any(text in block.text for block in article.blocks)


@pytest.mark.parametrize(
    "wrapper",
    [
        b"<!-- <meta charset=koi8-r> -->",
        b"<script>document.write('<meta charset=koi8-r>')</script>",
        b"<style>/* <meta charset=koi8-r> */</style>",
        b"<title><meta charset=koi8-r></title>",
        b"<textarea><meta charset=koi8-r></textarea>",
        b"<noscript><meta charset=koi8-r></noscript>",
    ],
)
def test_a_meta_that_is_text_not_an_element_declares_nothing(wrapper: bytes) -> None:
    body = padded(1500, b"<html><head>" + wrapper + b"</head><body><p>caf\xe9</p></body></html>")
    decision = resolve_encoding(body, "text/html")
    assert decision.source != "late-meta", wrapper
    assert all(d.source != "late-meta" for d in decision.overruled)


def test_a_late_meta_in_the_body_counts_as_the_parser_meets_it_there() -> None:
    body = padded(1100, b"<html><body><p>x</p><meta charset=koi8-r><p>\xf0\xd2\xc9</p>")
    assert resolve_encoding(body, "text/html").encoding == "koi8-r"


def test_unknown_labels_are_passed_over_for_the_first_known_one() -> None:
    body = padded(1100, b"<meta charset=bogus-8><meta charset=latin2><meta charset=koi8-r>")
    assert late_meta(body) == ("latin2", "iso-8859-2")


def test_an_http_charset_is_certain_and_the_late_meta_is_recorded_as_outranked() -> None:
    body = padded(1100, b"<meta charset=iso-8859-2><p>ok</p>")
    decision = resolve_encoding(body, "text/html; charset=windows-1252")
    assert (decision.encoding, decision.source) == ("windows-1252", "http")
    assert [(d.source, d.label, d.reason) for d in decision.overruled] == [
        ("late-meta", "iso-8859-2", "outranked")
    ]


def test_a_meta_in_the_prescan_makes_the_late_one_irrelevant() -> None:
    body = b"<meta charset=utf-8>" + padded(1100, b"<meta charset=koi8-r>")
    decision = resolve_encoding(body, "text/html")
    assert (decision.encoding, decision.source, decision.overruled) == ("utf-8", "meta", ())


def test_a_bom_wins_and_no_late_meta_is_looked_for() -> None:
    body = b"\xef\xbb\xbf" + padded(1100, b"<meta charset=koi8-r>")
    decision = resolve_encoding(body, "text/html")
    assert (decision.encoding, decision.source, decision.overruled) == ("utf-8", "bom", ())


def test_xml_media_types_ignore_a_late_meta() -> None:
    body = padded(1100, b"<meta charset=koi8-r/>")
    assert resolve_encoding(body, "application/xhtml+xml").source == "default"


def test_utf16_in_a_late_meta_means_utf8() -> None:
    body = padded(1100, "<meta charset=utf-16><p>café</p>".encode())
    decision = resolve_encoding(body, "text/html")
    assert (decision.encoding, decision.source) == ("utf-8", "late-meta")
