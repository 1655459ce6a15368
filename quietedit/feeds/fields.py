"""Entry fields from hostile feeds made into plain, safe values (pure).

Titles and summaries become plain text: markup stripped, entities decoded, control
characters removed, white space collapsed, length capped. Links are resolved and kept
only when they are http(s) with a host. Entry ids fall back from the feed's own id to the
link to a hash of the text.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from html.parser import HTMLParser
from typing import Final
from urllib.parse import urljoin, urlsplit

from quietedit.article.fingerprint import fold_text

MAX_TITLE_CHARS: Final = 1_000
"""Real headlines stay under 300 characters; more is a feed putting the body in the title."""

MAX_SUMMARY_CHARS: Final = 20_000
"""Room for a full-text feed's body; an entry's text beyond that is not a teaser any more."""

MAX_ID_CHARS: Final = 2_048
"""Longer ids (some CMSs put whole URLs with state in them) are replaced by their hash."""

MAX_URL_CHARS: Final = 8_192
"""Longer links are refused: no server serves them, and they bloat every record."""

MAX_LIST_ITEMS: Final = 50
"""Authors or categories kept per entry; tag-spam feeds list hundreds."""

MAX_PROBLEMS: Final = 100
"""Problems kept per feed; a feed with 30,000 bad links says so once, with the count."""

# Characters that are never text: C0/C1 controls (tab, LF, CR become spaces), non-characters.
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff\ud800-\udfff]")
_SPACE: Final = re.compile(r"\s+")
_BLOCK_TAGS: Final = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul",
    }
)  # fmt: skip
_HIDDEN_TAGS: Final = frozenset({"script", "style", "template", "head", "title"})
_UNSAFE_IN_URL: Final = re.compile(r"[\x00-\x20\x7f]")


def plain_text(value: str, *, html: bool, limit: int) -> str:
    """``value`` as one line of plain text, at most ``limit`` characters.

    With ``html`` the value is markup: tags are dropped (block boundaries become spaces,
    script and style content disappears) and character references decoded. Without it
    the value is already text and only cleaned.
    """
    text = _TextOfHTML.of(value) if html else value
    text = _CONTROL.sub(" ", text)
    text = _SPACE.sub(" ", text).strip()
    return text[:limit].rstrip()


def safe_link(raw: str | None, *, base: str) -> tuple[str | None, str | None]:
    """``raw`` resolved against ``base`` if it is a usable http(s) URL, else ``None``.

    The second value says why a non-empty link was refused (``javascript:``, ``data:``,
    no host, too long, ...), for the feed's problems.
    """
    if raw is None:
        return None, None
    stripped = _CONTROL.sub("", raw).strip()
    if not stripped:
        return None, None
    if len(stripped) > MAX_URL_CHARS:
        return None, f"link of {len(stripped)} characters refused (more than {MAX_URL_CHARS})"
    # Inner white space is what HTML's URL parser percent-encodes, not a reason to refuse.
    candidate = _UNSAFE_IN_URL.sub(lambda m: f"%{ord(m.group()):02X}", stripped)
    try:
        resolved = urljoin(base, candidate)
        parts = urlsplit(resolved)
        port = parts.port  # raises ValueError for a port out of range
    except ValueError:
        return None, f"link {_shown(raw)} refused: not a valid URL"
    if parts.scheme not in {"http", "https"}:
        return None, f"link {_shown(raw)} refused: only http(s) links are followed"
    if not parts.hostname or (port is not None and port == 0):
        return None, f"link {_shown(raw)} refused: no host"
    if parts.username is not None or parts.password is not None:
        return None, f"link {_shown(raw)} refused: credentials in a link"
    return resolved, None


def text_hash_id(title: str, summary: str) -> str:
    """The id of an entry without id or link: ``sha256:`` of its folded title and summary.

    Such an entry's id changes with its text, so an edit to it reads as a new entry.
    """
    folded = fold_text(title) + "\n" + fold_text(summary)
    return "sha256:" + hashlib.sha256(folded.encode("utf-8")).hexdigest()


def clean_id(raw: str) -> tuple[str, str | None]:
    """A feed's own entry id, cleaned; an overlong one becomes its hash (with a note why)."""
    text = _CONTROL.sub("", unicodedata.normalize("NFC", raw)).strip()
    if len(text) > MAX_ID_CHARS:
        digest = hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()
        return f"sha256:{digest}", f"id of {len(text)} characters replaced by its hash"
    return text, None


def unique_texts(values: list[str]) -> tuple[str, ...]:
    """Non-empty ``values`` in order, without repeats, at most :data:`MAX_LIST_ITEMS`."""
    seen = dict.fromkeys(v for v in values if v)
    return tuple(seen)[:MAX_LIST_ITEMS]


def capped_problems(problems: list[str]) -> tuple[str, ...]:
    """At most :data:`MAX_PROBLEMS`, with a last line counting the ones left out."""
    if len(problems) <= MAX_PROBLEMS:
        return tuple(problems)
    more = len(problems) - MAX_PROBLEMS + 1
    return (*problems[: MAX_PROBLEMS - 1], f"... and {more} more problems")


def _shown(value: str) -> str:
    """A hostile value, short enough to quote in a problem line."""
    return repr(value[:80] + ("..." if len(value) > 80 else ""))


class _TextOfHTML(HTMLParser):
    """The text of an HTML fragment, the way a reader would see it in one line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    @classmethod
    def of(cls, markup: str) -> str:
        if "<" not in markup and "&" not in markup:
            return markup
        parser = cls()
        try:
            parser.feed(markup)
            parser.close()
        except AssertionError:  # html.parser's internal checks on some malformed markup
            return re.sub(r"<[^>]*>", " ", markup)
        return "".join(parser.parts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN_TAGS:
            self.hidden += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)
