"""Document ids: a safe file name for every document, whatever its URL.

An id is ``<host>-<hash>``: the host, reduced to lower-case letters, digits and hyphens
and cut to 40 characters, so that a person browsing ``data/`` can tell sources apart;
then the first 16 hex digits of the SHA-256 of the full canonical URL, which is what
makes it unique. Ids are lower-case throughout, so they cannot collide on a
case-insensitive file system, contain no dot or slash, so they cannot traverse, and are
at most 57 characters long.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final
from urllib.parse import urlsplit

HOST_PART_MAX: Final = 40
HASH_PART_LEN: Final = 16  # 64 bits: a collision needs ~4 billion documents
DOCUMENT_ID_PATTERN: Final = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,39})-[0-9a-f]{16}")
_NOT_ALNUM: Final = re.compile(r"[^a-z0-9]+")


def document_id(canonical_url: str) -> str:
    """Return the archive id of the document whose canonical URL is ``canonical_url``."""
    try:
        host = urlsplit(canonical_url).hostname or ""
    except ValueError:  # an unparsable netloc ("http://[::1") still gets an id
        host = ""
    host_part = _NOT_ALNUM.sub("-", host.lower()).strip("-")[:HOST_PART_MAX]
    host_part = host_part.rstrip("-") or "doc"
    digest = hashlib.sha256(canonical_url.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{host_part}-{digest[:HASH_PART_LEN]}"


def is_document_id(text: str) -> bool:
    """Whether ``text`` has the shape of a document id (and so is a safe path component)."""
    return DOCUMENT_ID_PATTERN.fullmatch(text) is not None
