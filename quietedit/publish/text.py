"""Archive text made safe to publish (pure): no control characters, only http(s) links."""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

_ILLEGAL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` without the control characters XML 1.0 forbids (and DEL, and lone surrogates)."""
    return _ILLEGAL.sub("", text)


def safe_http_url(url: object) -> str | None:
    """``url`` if it is an http(s) URL with a host and no control characters, else ``None``."""
    if not isinstance(url, str) or _ILLEGAL.search(url) or any(c.isspace() for c in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        return None
    return url


def host_slug(url: str | None) -> str:
    """A source slug from a URL's host (``www.example.org`` → ``example-org``)."""
    host = (urlsplit(url).hostname or "") if url else ""
    host = host.removeprefix("www.")
    slug = re.sub(r"[^a-z0-9]+", "-", host.lower()).strip("-")[:63].strip("-")
    return slug or "unknown-source"


# Languages written right to left, and scripts that are (CLDR's "characterOrder":
# "right-to-left"); a tag naming a script decides by it ("ku-Arab", "az-Latn").
RTL_LANGUAGES: Final = frozenset(
    {
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ji", "khw", "ks", "lrc", "mzn", "nqo",
        "ps", "sd", "syr", "ug", "ur", "yi",
    }
)  # fmt: skip
RTL_SCRIPTS: Final = frozenset(
    {"arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "mand", "samr", "mend"}
)
_LANGUAGE_TAG: Final = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")


def text_language(tag: str | None) -> tuple[str | None, str]:
    """The ``lang`` and ``dir`` attributes for text in the language ``tag`` (BCP 47, as
    the page declared it): ``("he-IL", "rtl")``, ``("pl", "ltr")``; ``(None, "auto")``
    when the page named no valid language, so the browser sets the direction from the
    text's first strong character."""
    if not tag or _LANGUAGE_TAG.fullmatch(tag.strip().replace("_", "-")) is None:
        return None, "auto"
    clean = tag.strip().replace("_", "-")
    subtags = clean.casefold().split("-")
    scripts = [part for part in subtags[1:] if len(part) == 4 and part.isalpha()]
    if scripts:
        return clean, "rtl" if scripts[0] in RTL_SCRIPTS else "ltr"
    return clean, "rtl" if subtags[0] in RTL_LANGUAGES else "ltr"


def cut_run(text: str, *, n: int, last: int, words: int) -> str:
    """Run ``n`` of ``last + 1`` runs of unchanged text cut to ``words`` words beside the
    changes next to it (``…`` where words were left out): the first run keeps its end, the
    last its start, one between two changes both ends; a run short enough stays whole. The
    spaces at its ends stay, so that the words beside a change do not run into it."""
    parts = text.split()
    if len(parts) <= (2 if 0 < n < last else 1) * words:
        return text
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    if n == 0:
        return "… " + " ".join(parts[-words:]) + trail
    if n == last:
        return lead + " ".join(parts[:words]) + " …"
    return f"{lead}{' '.join(parts[:words])} … {' '.join(parts[-words:])}{trail}"
