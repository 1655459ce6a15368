"""What a network answers for a post made, and how credentials are kept out of text (pure)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sent:
    """A post made: its id (a Mastodon status id, a Bluesky ``at://`` URI), its content
    hash (Bluesky's ``cid``; "" on Mastodon) and where a reader finds it."""

    post_id: str
    cid: str
    url: str


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every credential in ``secrets`` replaced by ``***``: a server may echo
    what it was sent, and nothing quietedit prints or stores may hold a credential."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
