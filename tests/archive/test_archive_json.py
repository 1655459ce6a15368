"""Archive files are JSON as data/README.md documents it: UTF-8 without escapes for
non-ASCII text, keys sorted, two-space indentation, a final newline; same data, same bytes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.archive.records import dump_json, revision_to_record
from quietedit.archive.store import Archive
from quietedit.model import JSON
from tests.conftest import seed_story

# text JSON writes as itself: no control characters (escaped as \u00XX, as JSON requires),
# no lone surrogates (not Unicode), no backslash (escaped as \\)
PLAIN_TEXT = st.text(
    st.characters(exclude_categories=("Cc", "Cs"), exclude_characters="\\"), max_size=12
)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | PLAIN_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(PLAIN_TEXT, inner, max_size=4),
    max_leaves=25,
)
RECORDS = st.dictionaries(PLAIN_TEXT, VALUES, max_size=6)


def reversed_keys(value: Any) -> Any:
    """``value`` with every object's keys inserted in the opposite order."""
    if isinstance(value, dict):
        return {key: reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(item) for item in value]
    return value


def test_a_record_has_sorted_keys_two_space_indent_plain_utf8_and_a_final_newline() -> None:
    record: dict[str, JSON] = {
        "title": "Zürich: „Budget“ für 2027: 4,2 Mio. €",
        "blocks": [{"text": "Der Rat tagte.", "kind": "paragraph"}],
        "schema": 1,
        "previous": None,
        "signals": {},
        "notes": [],
        "exact": False,
        "share": 0.25,
    }
    assert (
        dump_json(record)
        == (
            "{\n"
            '  "blocks": [\n'
            "    {\n"
            '      "kind": "paragraph",\n'
            '      "text": "Der Rat tagte."\n'
            "    }\n"
            "  ],\n"
            '  "exact": false,\n'
            '  "notes": [],\n'
            '  "previous": null,\n'
            '  "schema": 1,\n'
            '  "share": 0.25,\n'
            '  "signals": {},\n'
            '  "title": "Zürich: „Budget“ für 2027: 4,2 Mio. €"\n'
            "}\n"
        ).encode()
    )


@settings(max_examples=300)
@given(RECORDS)
def test_any_record_round_trips_and_its_bytes_do_not_depend_on_key_order(
    record: dict[str, Any],
) -> None:
    data = dump_json(record)
    assert dump_json(reversed_keys(record)) == data
    text = data.decode("utf-8")
    assert text.endswith("}\n")
    assert not text.endswith("\n\n")
    assert "\\u" not in text  # non-ASCII text is written as itself
    assert json.loads(text) == record

    def keys_are_sorted(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        assert keys == sorted(keys)
        return dict(pairs)

    json.loads(text, object_pairs_hook=keys_are_sorted)
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, line


@pytest.mark.parametrize(
    "record",
    [{"share": float("nan")}, {"share": float("inf")}, {"title": "half a pair \ud800"}],
    ids=["nan", "infinity", "lone-surrogate"],
)
def test_values_an_archive_file_cannot_hold_are_refused(record: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - json's and the codec's own messages
        dump_json(record)


def test_stored_revision_files_are_exactly_their_records_serialised(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    for revision in archive.revisions(doc):
        path = archive.revision_file(doc, revision.number)
        assert path.read_bytes() == dump_json(revision_to_record(revision))
