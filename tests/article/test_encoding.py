"""Encoding: the declaration that wins, the ones that lost, and text that decodes right.

The fixtures in ``encodings/`` are real-world situations kept as bytes; each is described,
with what it must decode to, in ``encodings/expectations.json``.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.article.encoding import (
    LABELS,
    EncodingDecision,
    charset_parameter,
    encoding_for_label,
    is_xml_media_type,
    prescan,
    resolve_encoding,
    xml_declaration_label,
)
from quietedit.article.encoding_sniff import (
    BodyShape,
    first_non_ascii,
    opens_with_multibyte,
    utf8_shape,
)

FIXTURES = Path(__file__).parent / "encodings"
EXPECTATIONS: list[dict[str, Any]] = json.loads(
    (FIXTURES / "expectations.json").read_text(encoding="utf-8")
)
SOURCES = {"bom", "http", "meta", "late-meta", "xml", "sniff", "default"}


def test_every_fixture_file_has_expectations_and_every_expectation_a_file() -> None:
    described = {case["file"] for case in EXPECTATIONS}
    on_disk = {path.name for path in FIXTURES.glob("*.html")}
    assert described == on_disk
    assert all(case["describes"] for case in EXPECTATIONS)


@pytest.mark.parametrize("case", EXPECTATIONS, ids=lambda case: case["file"])
def test_fixture_decodes_as_described(case: dict[str, Any]) -> None:
    body = (FIXTURES / case["file"]).read_bytes()
    decision = resolve_encoding(body, case["content_type"])
    assert (decision.encoding, decision.source) == (case["encoding"], case["source"])
    overruled = [[d.source, d.label, d.encoding, d.reason] for d in decision.overruled]
    assert overruled == case["overruled"]
    text = decision.decode(body)
    for snippet in case["contains"]:
        assert snippet in text
    assert not text.startswith("\ufeff")


def test_the_fixtures_would_be_mojibake_if_decoded_the_naive_way() -> None:
    """What httpx's ``.text`` does (header charset, else UTF-8) garbles these fixtures."""
    garbled = set()
    for case in EXPECTATIONS:
        body = (FIXTURES / case["file"]).read_bytes()
        naive = body.decode(charset_parameter(case["content_type"]) or "utf-8", "replace")
        if not all(snippet in naive for snippet in case["contains"]):
            garbled.add(case["file"])
    # only the two UTF-8 pages survive: the meta beyond 1024 bytes, the body cut short
    assert {case["file"] for case in EXPECTATIONS} - garbled == {
        "meta-beyond-1024-bytes.html",
        "utf8-cut-by-size-cap.html",
    }


# --- precedence ---------------------------------------------------------------------


def test_bom_beats_header_and_meta_and_both_are_recorded() -> None:
    body = b"\xff\xfe" + '<meta charset="koi8-r"><p>Grüße</p>'.encode("utf-16-le")
    decision = resolve_encoding(body, "text/html; charset=windows-1251")
    assert (decision.encoding, decision.source) == ("utf-16le", "bom")
    assert [(d.source, d.reason) for d in decision.overruled] == [("http", "outranked")]
    assert decision.decode(body) == '<meta charset="koi8-r"><p>Grüße</p>'


def test_header_beats_meta_when_the_bytes_allow_both() -> None:
    body = '<meta charset="iso-8859-2"><p>Zażółć</p>'.encode("iso-8859-2")
    decision = resolve_encoding(body, 'text/html; charset="windows-1250"')
    assert (decision.encoding, decision.source) == ("windows-1250", "http")
    assert decision.overruled[0].to_record() == {
        "encoding": "iso-8859-2",
        "label": "iso-8859-2",
        "reason": "outranked",
        "source": "meta",
    }


def test_agreeing_declarations_are_not_recorded_as_losers() -> None:
    body = b'<meta charset="UTF-8"><p>ok</p>'
    assert resolve_encoding(body, "text/html; charset=utf-8").overruled == ()


def test_no_declaration_ascii_or_utf8_is_utf8_by_default() -> None:
    for body in (b"<p>plain</p>", "<p>Grüße</p>".encode(), b""):
        decision = resolve_encoding(body, None)
        assert (decision.encoding, decision.source) == ("utf-8", "default")


def test_a_body_mixing_utf8_and_stray_bytes_keeps_utf8_with_replacement() -> None:
    body = "<p>Grüße ".encode() + b"\x96 caf\xe9</p>"
    decision = resolve_encoding(body, "text/html; charset=utf-8")
    assert (decision.encoding, decision.source) == ("utf-8", "http")
    assert decision.decode(body) == "<p>Grüße \ufffd caf\ufffd</p>"
    assert decision.decode(body) == decision.decode(body)


def test_utf16_declared_for_a_body_without_nul_bytes_loses() -> None:
    body = b"<html><p>Hello</p></html>"
    decision = resolve_encoding(body, "text/html; charset=utf-16")
    assert (decision.encoding, decision.source) == ("utf-8", "default")
    assert [(d.label, d.reason) for d in decision.overruled] == [("utf-16", "no-nul-bytes")]


def test_utf16_declared_in_http_is_used_for_a_utf16_body() -> None:
    body = "<p>Grüße</p>".encode("utf-16-le")
    decision = resolve_encoding(body, "text/html; charset=UTF-16")
    assert (decision.encoding, decision.source) == ("utf-16le", "http")
    assert decision.decode(body) == "<p>Grüße</p>"


def test_unknown_header_label_is_ignored_and_recorded() -> None:
    body = '<meta charset="utf-8"><p>Grüße</p>'.encode()
    decision = resolve_encoding(body, "text/html; charset=utf8mb4")
    assert (decision.encoding, decision.source) == ("utf-8", "meta")
    assert decision.overruled[0].to_record() == {
        "encoding": None,
        "label": "utf8mb4",
        "reason": "unknown-label",
        "source": "http",
    }


def test_xml_declaration_is_the_fallback_for_html_after_meta() -> None:
    body = b'<?xml version="1.0" encoding="windows-1251"?><html><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>'
    decision = resolve_encoding(body, "text/html")
    assert (decision.encoding, decision.source) == ("windows-1251", "xml")
    assert "Привет" in decision.decode(body)
    with_meta = body.replace(b"<html>", b'<html><meta charset="koi8-r">')
    decision = resolve_encoding(with_meta, "text/html")
    assert (decision.encoding, decision.source) == ("koi8-r", "meta")
    assert [(d.source, d.label) for d in decision.overruled] == [("xml", "windows-1251")]


def test_xml_media_types_ignore_meta() -> None:
    body = b'<html><head><meta charset="koi8-r"/></head><p>x</p></html>'
    assert resolve_encoding(body, "application/xhtml+xml").source == "default"
    assert resolve_encoding(body, "text/html").encoding == "koi8-r"


def test_a_long_hostile_label_is_cut_in_the_record() -> None:
    decision = resolve_encoding(b"<p>x</p>", "text/html; charset=" + "x" * 5000)
    assert len(decision.overruled[0].label) == 100


def test_to_record_is_json_ready_and_names_every_loser() -> None:
    body = (FIXTURES / "server-default-utf8-cp1252-body.html").read_bytes()
    record = resolve_encoding(body, "text/html; charset=UTF-8").to_record()
    assert json.loads(json.dumps(record)) == {
        "encoding": "windows-1252",
        "overruled": [
            {"encoding": "utf-8", "label": "UTF-8", "reason": "not-utf-8", "source": "http"}
        ],
        "source": "meta",
    }


# --- labels and decoders ------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "encoding"),
    [
        ("latin1", "windows-1252"),
        ("ISO-8859-1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("US-ASCII", "windows-1252"),
        ("  utf8 ", "utf-8"),
        ("x-sjis", "shift_jis"),
        ("Windows-31J", "shift_jis"),
        ("gb2312", "gbk"),
        ("GB_2312-80", "gbk"),
        ("ks_c_5601-1987", "euc-kr"),
        ("tis-620", "cp874"),
        ("x-mac-cyrillic", "mac-cyrillic"),
        ("logical", "iso-8859-8"),
        ("utf-16", "utf-16le"),
        ("x-user-defined", "windows-1252"),
    ],
)
def test_labels_mean_what_the_whatwg_standard_says(label: str, encoding: str) -> None:
    assert encoding_for_label(label) == encoding


@pytest.mark.parametrize("label", ["utf8mb4", "iso-2022-kr", "hz-gb-2312", "replacement", ""])
def test_unknown_and_replacement_labels_are_not_encodings(label: str) -> None:
    assert encoding_for_label(label) is None


def test_the_label_table_is_complete_and_every_encoding_is_a_python_codec() -> None:
    assert len(LABELS) == 222  # the standard's 228 labels less its 6 "replacement" ones
    for encoding in set(LABELS.values()):
        codecs.lookup(encoding)
        codecs.lookup(EncodingDecision(encoding, "http").codec)


def test_windows_1252_decodes_like_browsers_including_its_five_holes() -> None:
    decision = EncodingDecision("windows-1252", "meta")
    assert decision.decode(b"\x80\x84\x93\x94\x96\x81\x8d\x8f\x90\x9d\xe9") == (
        "€„“”\u2013\x81\x8d\x8f\x90\x9dé"
    )


@pytest.mark.parametrize(
    ("encoding", "text", "codec"),
    [
        ("shift_jis", "①\uff5e髙", "cp932"),
        ("euc-kr", "똠방각하", "cp949"),
        ("gbk", "𠀀市", "gb18030"),
        ("big5", "香港", "big5hkscs"),
    ],
)
def test_legacy_cjk_encodings_decode_with_the_whatwg_superset(
    encoding: str, text: str, codec: str
) -> None:
    decision = EncodingDecision(encoding, "http")
    assert decision.codec == codec
    assert decision.decode(text.encode(codec)) == text


# --- the prescan, step by step ------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b'<meta charset="windows-1251">', [("windows-1251", "windows-1251")]),
        (b"<meta charset=koi8-r>", [("koi8-r", "koi8-r")]),
        (b"<META CHARSET='KOI8-R'/>", [("koi8-r", "koi8-r")]),
        (
            b'<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">',
            [("euc-jp", "euc-jp")],
        ),
        (
            b"<meta content=\"text/html;charset = 'big5'\" http-equiv=content-type>",
            [("big5", "big5")],
        ),
        (b'<meta content="text/html; charset=euc-jp">', []),  # needs the pragma
        (b'<meta http-equiv="refresh" content="5; charset=euc-jp">', []),
        (b'<meta charset="utf-16be">', [("utf-16be", "utf-8")]),
        (b'<meta charset="x-user-defined">', [("x-user-defined", "windows-1252")]),
        (
            b'<meta charset="nope"><meta charset="iso-8859-5">',
            [
                ("nope", None),
                ("iso-8859-5", "iso-8859-5"),
            ],
        ),
        (b'<meta charset="iso-8859-5" charset="utf-8">', [("iso-8859-5", "iso-8859-5")]),
        (
            b'<meta content="text/html; charset=koi8-u" charset="iso-8859-5" '
            b'http-equiv="content-type">',
            [("iso-8859-5", "iso-8859-5")],
        ),
        (
            b'<meta charset="iso-8859-5" content="text/html; charset=koi8-u" '
            b'http-equiv="content-type">',
            [("iso-8859-5", "iso-8859-5")],
        ),
        (b'<!-- <meta charset="koi8-r"> --><meta charset="koi8-u">', [("koi8-u", "koi8-u")]),
        (b'<!--><meta charset="koi8-r">', [("koi8-r", "koi8-r")]),  # "<!-->" closes at once
        (b'<div title="<meta charset=koi8-r>"><meta charset="koi8-u">', [("koi8-u", "koi8-u")]),
        (
            b'<!DOCTYPE html "<meta charset=koi8-r>"><meta charset="koi8-u">',
            [("koi8-u", "koi8-u")],
        ),  # "<!" skips to the first ">"
        (b'</p title="<meta charset=koi8-r>"><meta charset="koi8-u">', [("koi8-u", "koi8-u")]),
        (b"<metadata charset=koi8-r><meta charset=koi8-u>", [("koi8-u", "koi8-u")]),
        (b'<meta charset="koi8-r', []),  # cut off: the bytes end inside the tag
        (b"<meta name=description content=charset=koi8-r>", []),
    ],
)
def test_prescan_follows_the_html_standard(head: bytes, expected: list[tuple[str, str]]) -> None:
    assert prescan(b"<!DOCTYPE html><html><head>" + head + b"<title>t</title>") == expected


def test_prescan_reads_only_the_first_1024_bytes() -> None:
    filler = b"<!-- " + b"x" * 1100 + b" -->"
    assert prescan(filler + b'<meta charset="koi8-r">') == []
    assert prescan(b'<meta charset="koi8-r">' + filler) == [("koi8-r", "koi8-r")]


@pytest.mark.parametrize(
    ("body", "label"),
    [
        (b'<?xml version="1.0" encoding="ISO-8859-15"?><html/>', "ISO-8859-15"),
        (b"<?xml version='1.0' encoding = 'utf-8' ?><x/>", "utf-8"),
        (b'<?xml version="1.0"?><x encoding="koi8-r"/>', None),
        (b' <?xml version="1.0" encoding="koi8-r"?>', None),
        (b'<?xml version="1.0" encoding="koi 8"?>', None),
        (b'<?xml version="1.0" encoding=koi8-r?>', None),
    ],
)
def test_xml_declaration_is_read_as_the_html_standard_reads_it(
    body: bytes, label: str | None
) -> None:
    assert xml_declaration_label(body) == label


@pytest.mark.parametrize(
    ("header", "charset", "xml"),
    [
        ("text/html; charset=UTF-8", "UTF-8", False),
        ('text/html;charset="iso-8859-1"', "iso-8859-1", False),
        ("text/html; Charset='utf-8'; q=1", "utf-8", False),
        ("text/html; format=flowed; charset=koi8-r; charset=utf-8", "koi8-r", False),
        ("text/html", None, False),
        ("application/xhtml+xml; charset=utf-8", "utf-8", True),
        ("text/xml", None, True),
        ("application/rss+xml", None, True),
        ("", None, False),
    ],
)
def test_content_type_parsing(header: str, charset: str | None, xml: bool) -> None:
    assert charset_parameter(header) == charset
    assert is_xml_media_type(header) is xml


# --- properties ---------------------------------------------------------------------


@given(st.binary(max_size=3000), st.one_of(st.none(), st.text(max_size=80)))
def test_any_bytes_and_any_header_give_a_decision_and_text(
    body: bytes, content_type: str | None
) -> None:
    decision = resolve_encoding(body, content_type)
    assert decision.source in SOURCES
    assert decision.encoding in set(LABELS.values())
    text = decision.decode(body)
    assert text == decision.decode(body)
    assert resolve_encoding(body, content_type) == decision
    json.dumps(decision.to_record())


MARKUP_BYTES = st.lists(
    st.sampled_from([b"<", b">", b"<!--", b"-->", b"<meta", b" charset=", b"'", b'"', b"=",
                     b" content=", b"http-equiv=content-type", b"utf-8", b"koi8-r", b"/", b" ",
                     b"<?xml", b" encoding=", b"x", b"\x00", b"\xff"]),
    max_size=60,
).map(b"".join)  # fmt: skip


@given(MARKUP_BYTES)
def test_prescan_never_fails_on_markup_fragments(body: bytes) -> None:
    found = prescan(body)
    assert all(encoding is None for _, encoding in found[:-1])  # it stops at the first known
    assert prescan(body) == found


@given(st.text(alphabet=st.characters(codec="cp1252"), max_size=200))
def test_windows_1252_text_declared_in_meta_round_trips_unless_it_is_valid_utf8(
    text: str,
) -> None:
    encoded = text.encode("cp1252")
    body = b'<meta charset="windows-1252"><p>' + encoded + b"</p>"
    decision = resolve_encoding(body, "text/html")
    try:
        looks_like_utf8 = not encoded.isascii() and bool(encoded.decode("utf-8"))
    except UnicodeDecodeError:
        looks_like_utf8 = False
    if looks_like_utf8:  # "Ã©" is what UTF-8 "é" looks like in windows-1252: mojibake
        assert (decision.encoding, decision.source) == ("utf-8", "default")
        assert decision.overruled[0].reason == "bytes-are-utf-8"
    else:
        assert (decision.encoding, decision.source) == ("windows-1252", "meta")
        assert decision.decode(body) == '<meta charset="windows-1252"><p>' + text + "</p>"


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_utf8_text_round_trips_with_or_without_a_declaration(text: str) -> None:
    body = ("<p>" + text + "</p>").encode("utf-8")
    for content_type in (None, "text/html; charset=utf-8"):
        decision = resolve_encoding(body, content_type)
        if decision.source != "sniff":  # a NUL-heavy text can look like UTF-16
            assert decision.decode(body) == "<p>" + text + "</p>"


UTF8_PIECES = st.lists(
    st.one_of(
        st.sampled_from([b"<p>", b" ", b"\n", b"abc"]),
        st.text(max_size=4).map(lambda text: text.encode("utf-8", "surrogatepass")),
        st.binary(min_size=1, max_size=3),  # stray bytes, cut sequences, surrogate encodings
        st.just(b"x" * 4095),  # the scan's chunks are 4096 bytes: pieces straddle them
    ),
    max_size=12,
).map(b"".join)


@given(UTF8_PIECES)
def test_the_shortcut_to_is_not_utf8_agrees_with_the_whole_shape(body: bytes) -> None:
    shape = utf8_shape(body)
    assert BodyShape(body).is_not_utf8() is (shape == "not-utf-8")
    assert BodyShape(body).shape == shape
    if opens_with_multibyte(body):
        assert shape in {"utf-8", "mixed"}
    expected = next((index for index, byte in enumerate(body) if byte > 0x7F), -1)
    assert first_non_ascii(body) == expected


def test_a_utf8_declaration_stands_on_the_first_character_beyond_ascii() -> None:
    body = b"<meta charset=utf-8><p>caf\xc3\xa9 " + b"x" * 9000 + b"\xff\xfe</p>"
    assert opens_with_multibyte(body)
    assert resolve_encoding(body, None).encoding == "utf-8"  # mixed: the declaration stands
    stray = b"<meta charset=utf-8><p>" + b"x" * 5000 + b"caf\xe9</p>"
    assert not opens_with_multibyte(stray)
    decision = resolve_encoding(stray, None)
    assert (decision.encoding, decision.source) == ("windows-1252", "sniff")
