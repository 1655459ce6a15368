"""prepare_xml: decoding order, recorded overrides, and a prolog no parser can be hurt by."""

from __future__ import annotations

import codecs
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.feeds.xmlprep import MAX_ENTITY_VALUE, prepare_xml

DOC = "<rss><channel><title>Grüße aus Köln €</title></channel></rss>"


def declared(encoding: str) -> str:
    return f'<?xml version="1.0" encoding="{encoding}"?>\n{DOC}'


@pytest.mark.parametrize(
    ("body", "content_type", "encoding"),
    [
        (codecs.BOM_UTF8 + declared("windows-1252").encode(), "text/xml; charset=latin1", "utf-8"),
        (codecs.BOM_UTF16_LE + declared("utf-16").encode("utf-16-le"), None, "utf-16le"),
        (declared("utf-16").encode("utf-16-be"), "application/xml", "utf-16be"),
        (declared("windows-1252").encode("cp1252"), None, "windows-1252"),
        (declared("ISO-8859-1").encode("cp1252"), "application/rss+xml", "windows-1252"),
        (declared("utf-8").encode("cp1252"), "text/xml; charset=windows-1252", "windows-1252"),
        (DOC.encode(), None, "utf-8"),
    ],
    ids=["bom-beats-all", "utf16-bom", "utf16-sniffed", "declaration", "latin1-is-1252",
         "http-beats-declaration", "default-utf8"],
)  # fmt: skip
def test_the_projects_encoding_policy_decodes_feeds(
    body: bytes, content_type: str | None, encoding: str
) -> None:
    prepared = prepare_xml(body, content_type=content_type)
    assert prepared.encoding == encoding
    assert "Grüße aus Köln €" in prepared.text
    assert prepared.data.startswith(b'<?xml version="1.0" encoding="utf-8"?>')


@pytest.mark.parametrize(
    ("body", "content_type", "problem"),
    [
        (
            declared("utf-8").encode("cp1252"),
            "application/xml; charset=windows-1252",
            "XML declaration 'utf-8' not followed: the HTTP charset says windows-1252; "
            "read as windows-1252",
        ),
        (
            declared("utf-8").encode("cp1252"),
            None,
            "XML declaration 'utf-8' not followed: the bytes are not UTF-8; read as windows-1252",
        ),
        (
            declared("utf-8").encode(),
            "text/xml; charset=ISO-8859-1",
            "HTTP charset 'ISO-8859-1' not followed: the bytes are UTF-8; read as utf-8",
        ),
        (
            declared("x-klingon").encode(),
            None,
            "XML declaration 'x-klingon' not followed: not a known encoding; read as utf-8",
        ),
        (
            declared("utf-8").encode() + b"\xff\xfe broken",
            None,
            "bytes that are not valid utf-8 replaced",
        ),
    ],
    ids=["outranked", "refuted-by-bytes", "server-default", "unknown-label", "replaced"],
)
def test_every_losing_declaration_is_recorded(
    body: bytes, content_type: str | None, problem: str
) -> None:
    prepared = prepare_xml(body, content_type=content_type)
    assert prepared.problems == (problem,)
    assert "Grüße aus Köln" in prepared.text


def test_control_characters_are_removed_and_counted() -> None:
    prepared = prepare_xml(b"<rss><title>a\x00b\x1bc\x0bd\tok</title></rss>", content_type=None)
    assert "<title>abcd\tok</title>" in prepared.text
    assert prepared.problems == ("3 control character(s) XML does not allow removed",)


@pytest.mark.parametrize(
    "reference",
    [
        "&#xD800;",
        "&#55296;",
        "&#xDFFF;",
        "&#1;",
        "&#0;",
        "&#xFFFE;",
        "&#x110000;",
        "&#99999999999;",
    ],
)
def test_a_reference_to_a_character_xml_forbids_becomes_a_replacement(reference: str) -> None:
    body = f"<rss><title>a{reference}b &#x1F600; &#65; &#x9;</title></rss>".encode()
    prepared = prepare_xml(body, content_type=None)
    assert "<title>a&#xFFFD;b &#x1F600; &#65; &#x9;</title>" in prepared.text
    assert prepared.problems == ("1 character reference(s) to what XML does not allow replaced",)


def test_a_feed_with_a_surrogate_reference_still_parses() -> None:
    from quietedit.feeds.parse import parse_feed

    body = (
        b"<rss version='2.0'><channel><title>T</title><link>https://example.org/</link>"
        b"<item><title>Hi &#xD800; there</title><link>https://example.org/a</link></item>"
        b"</channel></rss>"
    )
    feed = parse_feed(body, url="https://example.org/feed.xml", content_type="application/rss+xml")
    assert feed.entries[0].title == "Hi \ufffd there"


def test_white_space_before_the_declaration_is_removed() -> None:
    prepared = prepare_xml(b"\n\n  " + declared("utf-8").encode(), content_type=None)
    assert prepared.text.count("<?xml") == 1
    assert prepared.problems == ("white space before the XML declaration removed",)


def test_a_doctype_keeps_only_short_plain_entities_one_per_line() -> None:
    body = (
        '<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://x/rss.dtd" ['
        '<!ENTITY nbsp "&#160;"><!ENTITY co "Courier"><!ENTITY big "' + "x" * 40 + '">'
        '<!ENTITY ref "&co;&co;"><!ENTITY % pe "x"><!ENTITY ext SYSTEM "file:///etc/passwd">'
        '<!-- ] > "quoted" --><!ELEMENT rss ANY>]><rss/>'
    )
    prepared = prepare_xml(body.encode(), content_type=None)
    assert prepared.text.endswith(
        '<!DOCTYPE rss [\n<!ENTITY nbsp "&#160;">\n<!ENTITY co "Courier">\n]><rss/>'
    )
    assert "4 entity declaration(s) ignored" in prepared.problems[0]


def test_a_doctype_without_safe_entities_disappears() -> None:
    body = '<!DOCTYPE rss SYSTEM "http://evil.example/x.dtd"><rss/>'
    prepared = prepare_xml(body.encode(), content_type=None)
    assert prepared.text.endswith("\n<rss/>")
    assert prepared.problems == ()


def test_comments_and_instructions_before_the_root_are_kept_but_defused() -> None:
    body = '<?xml-stylesheet href="s.xsl"?><!-- <!ENTITY x "y"> --><rss/>'
    prepared = prepare_xml(body.encode(), content_type=None)
    assert '<?xml-stylesheet href="s.xsl"?><!-- <!_ENTITY x "y"> --><rss/>' in prepared.text


def test_an_unterminated_doctype_is_cut_and_recorded() -> None:
    prepared = prepare_xml(b'<!DOCTYPE rss [<!ENTITY a "b">', content_type=None)
    assert "DOCTYPE" not in prepared.text
    assert prepared.problems == ("unterminated declaration before the root element removed",)


_ENTITY = re.compile(r'<!ENTITY (\w+) "([^"]*)">')
PIECES = ['<!ENTITY a "', "&a;", '">', "<!--", "-->", "<?", "?>", "]", ">", "'", "%", "x" * 20]
PIECES += ["\n", "<r>", "<!DOCTYPE r [", "SYSTEM", "<!ENTITY % p SYSTEM 'http://x/'>"]


@given(
    st.binary(max_size=600)
    | st.text(max_size=300).map(lambda t: ("<!DOCTYPE r [" + t + "]><r>&a;</r>").encode())
    | st.lists(st.sampled_from(PIECES), max_size=30).map(lambda parts: "".join(parts).encode()),
    st.sampled_from([None, "text/xml", "text/xml; charset=latin-1", "text/html; charset=bogus"]),
)
def test_any_body_comes_out_as_utf8_with_only_bounded_entities(
    body: bytes, content_type: str | None
) -> None:
    prepared = prepare_xml(body, content_type=content_type)
    assert prepared.data.decode("utf-8") == prepared.text
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", prepared.text)
    declaration = len('<?xml version="1.0" encoding="utf-8"?>\n')
    root = re.compile(r"<[A-Za-z0-9_]").search(prepared.text, declaration)
    head = prepared.text[: root.start() if root else None]
    for name, value in _ENTITY.findall(head):
        assert len(value) <= MAX_ENTITY_VALUE or re.fullmatch(r"&#x?[0-9a-fA-F]+;", value), (
            name,
            value,
        )
    assert "SYSTEM" not in "".join(re.findall(r"<!ENTITY[^>]*>", head))
