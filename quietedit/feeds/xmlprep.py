"""Make hostile XML bytes safe to hand to an XML parser (pure).

Every feed and sitemap passes through :func:`prepare_xml` before feedparser or expat sees
it. The result is UTF-8 with an honest declaration, no characters XML forbids, and no
DOCTYPE that could name something to fetch or expand:

- **Decoding**: the project's one encoding policy,
  :func:`~quietedit.article.encoding.resolve_encoding` (BOM > HTTP ``charset`` > the XML
  declaration > sniffing > UTF-8, WHATWG labels, a declaration the bytes refute loses).
  Every declaration that lost is recorded as a problem, and so are replaced bytes.
- **DOCTYPE**: the external identifier (``SYSTEM``/``PUBLIC`` DTD) is removed, and so is
  every entity declaration except a short internal one whose value is a single character
  reference or at most :data:`MAX_ENTITY_VALUE` characters of plain text. No parser
  can then fetch a DTD or an external entity (XXE, whatever SAX driver is installed), and
  expansion is bounded (no "billion laughs", no quadratic blow-up), including in
  feedparser's lenient fallback parser, which expands declared entities without limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from quietedit.article.encoding import Declaration, EncodingDecision, resolve_encoding

MAX_ENTITY_VALUE: Final = 16
"""Longest plain-text entity value kept; with references at least 3 bytes long this
bounds expansion to about 5x the input, whatever a hostile feed declares."""

MAX_ENTITIES: Final = 64
"""Entity declarations kept at most; real feeds declare a handful (``&nbsp;`` and kin)."""

_SOURCES: Final = {
    "bom": "byte order mark",
    "http": "HTTP charset",
    "meta": "<meta> charset",
    "xml": "XML declaration",
    "sniff": "bytes",
    "default": "default",
}
_REASONS: Final = {
    "unknown-label": "not a known encoding",
    "not-utf-8": "the bytes are not UTF-8",
    "bytes-are-utf-8": "the bytes are UTF-8",
    "no-nul-bytes": "a body without NUL bytes is not UTF-16",
}
_TEXT_DECLARATION: Final = re.compile(r"^\s*<\?xml\s[^>]{0,300}?\?>")
# Characters XML 1.0 forbids (C0 controls but tab, LF, CR; non-characters; surrogates).
FORBIDDEN_CHARACTERS: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_ENTITY: Final = re.compile(
    r"""<!ENTITY\s+(?P<pe>%\s+)?(?P<name>[^\s"'>]+)\s+"""
    r"""(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<ext>SYSTEM|PUBLIC)\b)""",
    re.IGNORECASE,
)
_CHAR_REFERENCE: Final = re.compile(r"&#(?:[0-9]{1,7}|x[0-9a-fA-F]{1,6});")
_ANY_CHAR_REFERENCE: Final = re.compile(r"&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));")
_ENTITY_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,60}")
_UNSAFE_VALUE: Final = re.compile(r"[&%<>\"']")
_ENTITY_KEYWORD: Final = re.compile(r"<!ENTITY", re.IGNORECASE)
_ELEMENT_START: Final = re.compile(r"<[A-Za-z0-9_]")  # feedparser's head boundary, <\w in ASCII


@dataclass(frozen=True, slots=True)
class PreparedXML:
    """XML ready for a parser: UTF-8 bytes, the encoding they were read as, what was fixed."""

    data: bytes
    text: str
    encoding: str
    problems: tuple[str, ...]


def prepare_xml(body: bytes, *, content_type: str | None) -> PreparedXML:
    """Decode ``body`` (served with ``content_type``) and neutralise it for parsing.

    Never raises: undecodable bytes become U+FFFD, with the fact recorded in ``problems``.
    """
    problems: list[str] = []
    decision = resolve_encoding(body, content_type)
    text = decision.decode(body)
    problems.extend(_overruled(declaration, decision) for declaration in decision.overruled)
    if "\ufffd" in text and "\ufffd".encode() not in body:
        problems.append(f"bytes that are not valid {decision.encoding} replaced")
    text = text.removeprefix("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("<") and len(stripped) != len(text):
        if _TEXT_DECLARATION.match(stripped):
            problems.append("white space before the XML declaration removed")
        text = stripped
    text, removed = FORBIDDEN_CHARACTERS.subn("", text)
    if removed:
        problems.append(f"{removed} control character(s) XML does not allow removed")
    forbidden = [m for m in _ANY_CHAR_REFERENCE.finditer(text) if not _allowed_reference(m)]
    if forbidden:
        text = _ANY_CHAR_REFERENCE.sub(
            lambda m: m.group() if _allowed_reference(m) else "&#xFFFD;", text
        )
        problems.append(
            f"{len(forbidden)} character reference(s) to what XML does not allow replaced"
        )
    text = _TEXT_DECLARATION.sub("", text, count=1).lstrip()
    text = neutralise_doctype(text, problems=problems)
    text = '<?xml version="1.0" encoding="utf-8"?>\n' + text
    return PreparedXML(
        data=text.encode("utf-8"), text=text, encoding=decision.encoding, problems=tuple(problems)
    )


def _allowed_reference(match: re.Match[str]) -> bool:
    """Whether a character reference names a character XML allows. One that does not (a
    surrogate, a control, a non-character, beyond U+10FFFF) makes a strict parser reject
    the feed and the lenient one crash, so it becomes U+FFFD, as in HTML."""
    decimal, hexadecimal = match.groups()
    digits = (decimal or hexadecimal).lstrip("0")
    if len(digits) > 7:
        return False
    code = int(decimal) if decimal else int(hexadecimal, 16)
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


def _overruled(declaration: Declaration, decision: EncodingDecision) -> str:
    """A losing encoding declaration as one line: where, what it said, why it lost."""
    where = _SOURCES.get(declaration.source, declaration.source)
    reason = _REASONS.get(declaration.reason, declaration.reason)
    if declaration.reason == "outranked":
        winner = _SOURCES.get(decision.source, decision.source)
        reason = f"the {winner} says {decision.encoding}"
    return f"{where} {declaration.label!r} not followed: {reason}; read as {decision.encoding}"


def neutralise_doctype(text: str, *, problems: list[str]) -> str:
    """Remove every DOCTYPE's external DTD and every entity declaration that is not safe.

    ``text`` starts after the XML declaration. The prolog is everything before the first
    ``<`` followed by an ASCII letter, digit or ``_`` — the same boundary feedparser uses,
    so nothing it would read as a declaration escapes this pass. Comments, processing
    instructions and stray text there are kept, with any ``<!ENTITY`` in them defused.
    """
    out: list[str] = []
    kept: list[str] = []
    dropped = 0
    pos = 0
    while True:
        lt = text.find("<", pos)
        if lt == -1:
            out.append(_defuse(text[pos:]))
            break
        if _ELEMENT_START.match(text, lt):
            out.append(_defuse(text[pos:lt]))
            out.append(text[lt:])
            break
        out.append(_defuse(text[pos:lt]))
        if text.startswith("<!--", lt):
            close = text.find("-->", lt + 4)
            end = -1 if close == -1 else close + 3
        elif text.startswith("<?", lt):
            close = text.find("?>", lt + 2)
            end = -1 if close == -1 else close + 2
        elif text.startswith("<!", lt):
            close, subset = _declaration_end(text, lt)
            if close == -1:
                problems.append("unterminated declaration before the root element removed")
                return "".join(out)
            if text[lt : lt + 9].upper() == "<!DOCTYPE":
                before = len(kept)
                dropped += _safe_entities(subset, kept)
                out.append(_rebuilt_doctype(text[lt + 9 : close], kept[before:]))
            else:
                dropped += text[lt : lt + 8].upper() == "<!ENTITY"
            pos = close + 1
            continue
        else:  # a "<" that starts nothing: text, as a lenient parser would read it
            end = lt + 1
        if end == -1:
            out.append(_defuse(text[lt:]))
            return "".join(out)
        out.append(_defuse(text[lt:end]))
        pos = end
    if dropped:
        problems.append(
            f"{dropped} entity declaration(s) ignored: external, parameter or expanding "
            "entities are never resolved"
        )
    return "".join(out)


def _safe_entities(subset: str, kept: list[str]) -> int:
    """Append the safe entity declarations of an internal subset to ``kept``; count the rest."""
    dropped = subset.upper().count("<!ENTITY")
    for match in _ENTITY.finditer(subset):
        value = match.group("dq") if match.group("dq") is not None else match.group("sq")
        safe = (
            match.group("pe") is None
            and value is not None
            and len(kept) < MAX_ENTITIES
            and _ENTITY_NAME.fullmatch(match.group("name")) is not None
            and (
                _CHAR_REFERENCE.fullmatch(value) is not None
                or (len(value) <= MAX_ENTITY_VALUE and not _UNSAFE_VALUE.search(value))
            )
        )
        if safe:
            kept.append(f'<!ENTITY {match.group("name")} "{value}">')
            dropped -= 1
    return max(dropped, 0)


def _rebuilt_doctype(inner: str, entities: list[str]) -> str:
    """A DOCTYPE with no external identifier and only ``entities``, or nothing at all."""
    if not entities:
        return ""
    words = inner.split()
    name = words[0] if words and _ENTITY_NAME.fullmatch(words[0]) else "feed"
    # One declaration per line: feedparser only reads entity declarations at a line start.
    return f"<!DOCTYPE {name} [\n" + "\n".join(entities) + "\n]>"


def _defuse(text: str) -> str:
    return _ENTITY_KEYWORD.sub("<!_ENTITY", text)


def _declaration_end(text: str, start: int) -> tuple[int, str]:
    """Index of the ``>`` closing the ``<!`` declaration at ``start``, and its ``[...]`` subset.

    Quotes and comments are skipped, so a ``>`` inside an entity value ends nothing.
    """
    quote = ""
    subset_start = -1
    in_subset = False
    subset = ""
    pos = start + 2
    while pos < len(text):
        char = text[pos]
        if quote:
            if char == quote:
                quote = ""
        elif in_subset and text.startswith("<!--", pos):
            close = text.find("-->", pos + 4)
            if close == -1:
                return -1, ""
            pos = close + 3
            continue
        elif char in "\"'":
            quote = char
        elif char == "[" and subset_start == -1:
            in_subset, subset_start = True, pos
        elif char == "]" and in_subset:
            in_subset, subset = False, text[subset_start + 1 : pos]
        elif char == ">" and not in_subset:
            return pos, subset
        pos += 1
    return -1, ""
