"""The archive's JSON writer gives json.dumps's exact text, or its exact error."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.archive.encoder import indented_json
from quietedit.archive.records import dump_json, revision_to_record
from quietedit.archive.store import Archive
from tests.conftest import seed_story


def reference(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False)


def outcome(encode: Any, value: Any) -> tuple[str, str]:
    try:
        return "text", encode(value)
    except (ValueError, TypeError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


# every character, lone surrogates and control characters included
TEXT = st.text(st.characters(codec=None, categories=None), max_size=12)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(TEXT, inner, max_size=4)
    ),
    max_leaves=25,
)
ODD_KEYS = st.dictionaries(
    st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none() | TEXT,
    SCALARS,
    max_size=4,
)


@settings(max_examples=400)
@given(VALUES)
def test_text_is_json_dumps_text_for_any_json_value(value: Any) -> None:
    assert outcome(indented_json, value) == outcome(reference, value)


@given(ODD_KEYS)
def test_keys_that_are_not_strings_get_json_dumps_treatment(value: Any) -> None:
    assert outcome(indented_json, value) == outcome(reference, value)


def test_values_json_has_no_form_for_raise_json_dumps_error() -> None:
    class Text(str):
        pass

    for value in ({"a": {1, 2}}, {"when": object()}, {"nan": float("nan")}, [float("-inf")]):
        assert outcome(indented_json, value) == outcome(reference, value)
        assert outcome(indented_json, value)[0] != "text"
    # a subclass of a JSON type is json.dumps's to encode, as it encodes it
    assert indented_json({"t": Text("x"), "n": [True, 1]}) == reference({"t": "x", "n": [True, 1]})


def test_a_circular_structure_is_a_value_error_not_a_crash() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert outcome(indented_json, loop) == ("ValueError", "Circular reference detected")


def test_stored_files_keep_their_bytes(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    for revision in archive.revisions(doc):
        record = revision_to_record(revision)
        path = archive.layout.revision_file(doc, revision.number)
        assert path.read_bytes() == (reference(record) + "\n").encode() == dump_json(record)
