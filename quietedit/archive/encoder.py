"""The archive's indented JSON text, built without the standard library's slow path (pure).

Archive files are ``json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True,
allow_nan=False)`` (data/README.md fixes those bytes, and ``quietedit verify`` checks
them). With ``indent`` set, the standard library leaves its C encoder and builds the text
in pure Python, one generator step per token: about 0.2 ms for a 6 KB revision, written
for every revision, event and record. :func:`indented_json` builds the same text from the
same pieces -- the C string encoder for every string, ``int.__repr__``/``float.__repr__``
for numbers -- in a few joins per container, four to five times faster.

It handles exactly the values an archive record is made of: ``dict`` with ``str`` keys,
``list``, ``tuple``, ``str``, ``int``, finite ``float``, ``bool`` and ``None``, of those
exact types. Anything else (a subclass, a non-string key, NaN, a cycle) goes to
``json.dumps`` itself, so the text, or the error, is the standard library's in every case.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from json.encoder import encode_basestring
from typing import Final

from quietedit.model import JSON

INDENT: Final = "  "
"""Two spaces a level: the archive's indentation (data/README.md)."""


class _Unsupported(Exception):
    """A value :func:`_encode` leaves to ``json.dumps``."""


def indented_json(value: JSON | Mapping[str, JSON]) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False)``,
    character for character; raises what that raises (``ValueError`` for NaN or infinity
    or a circular reference, ``TypeError`` for a value JSON has no form for)."""
    try:
        return _encode(value, "\n")
    except (_Unsupported, RecursionError):
        return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False)


def _encode(value: object, newline: str) -> str:
    """The text of ``value`` whose first line is already in place at the indentation
    ``newline`` (a newline and the current level's spaces) ends with."""
    if type(value) is str:
        return encode_basestring(value)
    if type(value) is dict:
        if not value:
            return "{}"
        inner = newline + INDENT
        try:
            keys = sorted(value)
        except TypeError:  # keys of mixed types: json.dumps says which
            raise _Unsupported from None
        # json.dumps sorts the (key, value) pairs, which compares distinct keys only
        parts = []
        for key in keys:
            if type(key) is not str:
                raise _Unsupported
            item = value[key]
            # strings, most of a record, inline: a call per value is much of the cost
            text = encode_basestring(item) if type(item) is str else _encode(item, inner)
            parts.append(f"{encode_basestring(key)}: {text}")
        return "{" + inner + ("," + inner).join(parts) + newline + "}"
    if type(value) is list or type(value) is tuple:
        if not value:
            return "[]"
        inner = newline + INDENT
        items = ("," + inner).join(
            [
                encode_basestring(item) if type(item) is str else _encode(item, inner)
                for item in value
            ]
        )
        return "[" + inner + items + newline + "]"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    raise _Unsupported
