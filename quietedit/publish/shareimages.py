"""A document's share images in a build: each drawn once, kept while its card is the same.

Drawing a share image (:func:`~quietedit.publish.share.render_card`) costs more than the
rest of an edit's pages, so a build that renders a document again keeps each image whose
card (:func:`~quietedit.publish.share.card_key`) has not changed and whose file is still
in the site, and draws the others. What each image was drawn from is kept in the
document's comparisons file (:data:`~quietedit.publish.comparecache.SHARE_KEY`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from quietedit.model import JSON
from quietedit.publish.comparecache import SHARE_KEY
from quietedit.publish.pages import Edit
from quietedit.publish.paths import SiteWriter, file_digest
from quietedit.publish.share import (
    HEIGHT,
    IMAGE_NAME,
    WIDTH,
    alt_text,
    card_key,
    card_of,
    render_card,
)


@dataclass(slots=True)
class ShareImages:
    """The share images of the document being rendered: edit number → [card key, digest,
    bytes], ``old`` as the previous build made them and ``made`` as this one does."""

    site: str  # the site's name, on every card
    old: dict[str, JSON] = field(default_factory=dict)
    made: dict[str, JSON] = field(default_factory=dict)

    @classmethod
    def kept_in(cls, kept: dict[str, JSON] | None, *, site: str) -> ShareImages:
        """The images the previous build made, from the document's comparisons file
        (:func:`~quietedit.publish.comparecache.read_comparisons`; ``None``: none)."""
        old = (kept or {}).get(SHARE_KEY)
        return cls(site, old if isinstance(old, dict) else {})

    def write(
        self, writer: SiteWriter, base: str, edit: Edit, *, outlet: str, written: dict[str, int]
    ) -> dict[str, object]:
        """Write the share image of ``edit`` through ``writer`` (or keep it: drawn once,
        while its card's key stays the same and its file is there), count its bytes in
        ``written`` and return what its pages say of it."""
        card = card_of(edit, outlet=outlet, site=self.site)
        key = card_key(card)
        path = f"{base}diff/{edit.number}/{IMAGE_NAME}"
        old = self.old.get(str(edit.number))
        if (
            isinstance(old, list)
            and len(old) == 3
            and old[0] == key
            and isinstance(old[1], str)
            and isinstance(old[2], int)
            and os.path.isfile(os.path.join(writer.root, path))
        ):
            digest, size = old[1], old[2]
            writer.claim(path, digest)
        else:
            data = render_card(card)
            digest, size = file_digest(data), len(data)
            writer.write(path, data)
        self.made[str(edit.number)] = [key, digest, size]
        written[path] = size
        return {"path": path, "alt": alt_text(card), "width": WIDTH, "height": HEIGHT}
