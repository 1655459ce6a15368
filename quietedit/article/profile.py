"""A host's template as data: the furniture lines its pages share, and the key they match by.

:func:`quietedit.article.template.learn_host_profile` learns a :class:`HostProfile` from a
host's pages; :func:`quietedit.article.extract.extract_article` drops the lines it lists.
Both read this module, so that extraction never needs the learning.

Blocks are compared by a *key* that forgives what changes from page to page in a
template line: case, white space, and digits ("© 2026", "12 comments" and
"© 2027", "13 comments" share a key).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from quietedit.errors import HostProfileError
from quietedit.model import JSON

PROFILE_VERSION: Final = 1
"""Version of the record format and of :func:`furniture_key`; bump on any change."""

_DIGITS: Final = re.compile(r"\d+")


def furniture_key(text: str) -> str:
    """The form in which blocks are compared across pages: folded case, space and digits."""
    return _DIGITS.sub("0", " ".join(text.lower().split()))


@dataclass(frozen=True, slots=True)
class HostProfile:
    """What one host's pages share: its furniture lines, as :func:`furniture_key` keys.

    ``pages`` is the number of distinct articles it was learnt from. Store it with
    :meth:`to_record` and read it back with :meth:`from_record`.
    """

    host: str
    pages: int = 0
    furniture: tuple[str, ...] = ()
    _keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "furniture", tuple(sorted(set(self.furniture))))
        object.__setattr__(self, "_keys", frozenset(self.furniture))

    def furniture_keys(self) -> frozenset[str]:
        """The furniture keys, for membership tests."""
        return self._keys

    def is_furniture(self, text: str) -> bool:
        """Whether a block's text is one of this host's furniture lines."""
        return furniture_key(text) in self._keys

    def to_record(self) -> dict[str, JSON]:
        """A JSON-ready object (sorted lists; deterministic)."""
        return {
            "version": PROFILE_VERSION,
            "host": self.host,
            "pages": self.pages,
            "furniture": list(self.furniture),
        }

    @classmethod
    def from_record(cls, record: object) -> HostProfile:
        """Read :meth:`to_record`'s output back.

        Raises :class:`~quietedit.errors.HostProfileError` naming the field when the
        record is not a profile of this version.
        """
        if not isinstance(record, dict):
            raise HostProfileError(f"a host profile is a JSON object, not {type(record).__name__}")
        version = record.get("version")
        if version != PROFILE_VERSION:
            raise HostProfileError(
                f"host profile version {version!r} is not {PROFILE_VERSION}; "
                "learn the profile again from the host's pages"
            )
        host = record.get("host")
        pages = record.get("pages")
        furniture = record.get("furniture")
        if not isinstance(host, str):
            raise HostProfileError(f"host profile 'host' must be a string, not {host!r}")
        if not isinstance(pages, int) or isinstance(pages, bool) or pages < 0:
            raise HostProfileError(
                f"host profile 'pages' must be a whole number of at least 0, not {pages!r}"
            )
        if not isinstance(furniture, list) or not all(isinstance(f, str) for f in furniture):
            raise HostProfileError("host profile 'furniture' must be a list of strings")
        return cls(host=host, pages=pages, furniture=tuple(furniture))
