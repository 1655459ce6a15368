"""The content hash: what makes two observations of an article "the same revision".

The hash is SHA-256 over *folded* and *masked* text, so that differences no reader would
call an edit (typographic quotes against straight ones, a non-breaking space, a soft
hyphen, runs of white space) and spans a page changes on every fetch ("5 minutes ago",
"Updated 10:42 GMT", session ids, comment counts: :mod:`quietedit.article.masks`) never
make a new revision. Every stored revision names the fingerprint version it was hashed
with, so a later, better folding can be introduced without making old hashes
unverifiable.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Final

from quietedit.article.masks import mask_volatile
from quietedit.model import Article

FINGERPRINT_VERSION: Final = 1
"""Version of the folding and masking below; bump it (and keep the old one verifiable) on
any change once revisions hashed with it exist."""

HASH_PREFIX: Final = "sha256:"

# Typographic variants that publishers' CMSs and "smart" editors swap freely.
_TYPOGRAPHIC: Final = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark / apostrophe
        "\u201a": "'",  # single low-9 quotation mark
        "\u201b": "'",
        "\u2032": "'",  # prime
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',  # double prime
        "\u00ab": '"',  # guillemets
        "\u00bb": '"',
        "\u2039": "'",
        "\u203a": "'",
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2015": "-",  # horizontal bar
        "\u2212": "-",  # minus sign
        "\u2026": "...",  # ellipsis
        "\u00ad": None,  # soft hyphen
        "\u200b": None,  # zero-width space
        "\u200c": None,  # zero-width non-joiner
        "\u200d": None,  # zero-width joiner
        "\u2060": None,  # word joiner
        "\ufeff": None,  # BOM / zero-width no-break space
    }
)
_SPACE_RUN: Final = re.compile(r"\s+")


def fold_text(text: str) -> str:
    """Fold ``text`` to the form that is hashed: NFC, plain punctuation, single spaces.

    Case, digits and letters are never touched: a changed number or name must change
    the hash. Non-breaking and other Unicode spaces count as white space.
    """
    folded = unicodedata.normalize("NFC", text).translate(_TYPOGRAPHIC)
    return _SPACE_RUN.sub(" ", folded).strip()


def fingerprint_text(text: str) -> str:
    """The form of ``text`` that is hashed: :func:`fold_text`, then the volatile spans
    masked (:func:`quietedit.article.masks.mask_volatile`). Idempotent."""
    return mask_volatile(fold_text(text))


def content_hash(article: Article) -> str:
    """Return ``sha256:<hex>`` over the fingerprint texts of the title and the blocks.

    Blocks that fold to nothing are left out; block kinds are not hashed, so a paragraph
    re-marked as a heading by the extractor is not an edit of the text.
    """
    texts = [text for block in article.blocks if (text := fingerprint_text(block.text))]
    canonical = json.dumps(
        {"blocks": texts, "title": fingerprint_text(article.title)},
        ensure_ascii=False,
        separators=(",", ":"),
        sort_keys=True,
    )
    return HASH_PREFIX + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
