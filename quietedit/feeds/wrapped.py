"""A feed wrapped in an XHTML page: found, and cut out for the feed parser (pure).

Some publishers serve their Atom or RSS feed inside an XHTML document, so that a browser
shows it as a page: ``<html xmlns="http://www.w3.org/1999/xhtml"><body><feed
xmlns="http://www.w3.org/2005/Atom">…</feed></body></html>``. The root is ``html``, but
the document is still a feed. :func:`wrapped_feed` finds the first feed element (Atom's
``feed`` in an Atom namespace, ``rss``, or ``rdf:RDF``) below an XHTML root and returns it
as a document of its own, with the namespace declarations of the elements around it, so
that the feed parser reads the feed and not the page's ``<title>``.

Plain HTML pages are never unwrapped: the document must be XML (an XML declaration, or the
XHTML namespace on its root), as only XML can carry another vocabulary's elements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

ATOM_NAMESPACES: Final = ("http://www.w3.org/2005/Atom", "http://purl.org/atom/ns#")
XHTML_NAMESPACE: Final = "http://www.w3.org/1999/xhtml"

_HIDDEN: Final = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.DOTALL)
_ROOT: Final = re.compile(r"<([A-Za-z_][\w.-]*:)?html(?=[\s/>])[^>]*>", re.IGNORECASE)
_FEED_START: Final = re.compile(
    r"<(?P<qname>(?:(?P<prefix>[A-Za-z_][\w.-]*):)?(?P<local>feed|rss|RDF))(?=[\s/>])"
    r"(?P<attributes>[^>]*)>"
)
_XMLNS: Final = re.compile(r"""\sxmlns(?::(?P<prefix>[\w.-]+))?\s*=\s*(["'])(?P<uri>.*?)\2""")
_KINDS: Final = {"feed": "atom", "rss": "rss", "RDF": "rdf"}


@dataclass(frozen=True, slots=True)
class WrappedFeed:
    """The feed found in a page: its kind (``atom``, ``rss`` or ``rdf``) and its XML."""

    kind: str
    text: str


def wrapped_feed(text: str) -> WrappedFeed | None:
    """The feed inside the XHTML document ``text``, or None (no XHTML root, or no feed)."""
    markup = _HIDDEN.sub(lambda m: " " * len(m.group(0)), text)  # offsets kept
    root = _ROOT.search(markup)
    if root is None or not _is_xml(markup, root):
        return None
    for start in _FEED_START.finditer(markup, root.end()):
        declared = _declarations(markup[: start.start()]) | _declarations(start.group(0))
        prefix = start["prefix"]
        if start["local"] == "feed" and declared.get(prefix or "") not in ATOM_NAMESPACES:
            continue
        if start["local"] == "RDF" and prefix is None:
            continue
        end = markup.rfind(f"</{start['qname']}", start.end())
        close = markup.find(">", end) if end != -1 else -1
        if close == -1:
            return None
        own = _declarations(start.group(0))
        inherited = "".join(
            f' xmlns:{name}="{uri}"' if name else f' xmlns="{uri}"'
            for name, uri in sorted(declared.items())
            if name not in own and (name or uri != XHTML_NAMESPACE)
        )
        head = f"<{start['qname']}{inherited}{start['attributes']}>"
        return WrappedFeed(_KINDS[start["local"]], head + text[start.end() : close + 1])
    return None


def _is_xml(markup: str, root: re.Match[str]) -> bool:
    return markup.lstrip().startswith("<?xml") or XHTML_NAMESPACE in root.group(0)


def _declarations(markup: str) -> dict[str, str]:
    """Namespace declarations in ``markup``'s start tags, prefix ("" for the default) to URI;
    later ones win, as the nearer ancestor's would."""
    return {m["prefix"] or "": m["uri"] for m in _XMLNS.finditer(markup)}
