"""diff_revisions and its Diff JSON: the documented shape, replay, counts, determinism."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.analysis import diff_revisions
from quietedit.analysis.diff import choose_pair
from quietedit.analysis.words import count_words
from quietedit.errors import RevisionNotFoundError
from quietedit.model import Article, Block
from quietedit.revisions import Observation, Revision
from tests.analysis.replay import replay
from tests.analysis.stories import BUDGET, HEALTH, STORM, story


def record(old: Article, new: Article) -> dict[str, Any]:
    """The Diff JSON as a reader gets it: serialised and parsed back."""
    found: dict[str, Any] = json.loads(json.dumps(diff_revisions(old, new).to_dict()))
    return found


SENTENCES = [s.strip() for text in BUDGET + STORM + HEALTH for s in text.split(". ") if s.strip()]


def test_the_diff_json_has_the_documented_shape() -> None:
    old = Article(
        "Storm hits the coast",
        (Block("Gusts reached 120 km/h on Tuesday."), Block("Ferries stayed in port."),
         Block("Schools will close."), Block("Reaction", "heading")),
    )  # fmt: skip
    new = Article(
        "Storm hits the coast overnight",
        (Block("Gusts reached 130 km/h on Tuesday."), Block("Schools will close."),
         Block("Ferries stayed in port."), Block("Reaction", "heading"),
         Block("The mayor thanked the firefighters.")),
    )  # fmt: skip
    assert diff_revisions(old, new).to_dict() == {
        "schema": 1,
        "title": {
            "op": "changed",
            "similarity": 0.889,
            "words": [["=", "Storm hits the coast "], ["+", "overnight"]],
        },
        "blocks": [
            {
                "op": "changed", "old": 0, "new": 0, "kind": "paragraph", "similarity": 0.857,
                "words": [["=", "Gusts reached "], ["-", "120 "], ["+", "130 "],
                          ["=", "km/h on Tuesday."]],
            },
            {"op": "moved", "old": 2, "new": 1, "kind": "paragraph", "similarity": 1.0,
             "text": "Schools will close."},
            {"op": "kept", "old": 1, "new": 2, "kind": "paragraph",
             "text": "Ferries stayed in port."},
            {"op": "kept", "old": 3, "new": 3, "kind": "heading", "text": "Reaction"},
            {"op": "added", "new": 4, "kind": "paragraph",
             "text": "The mayor thanked the firefighters."},
        ],
        "summary": {
            "kept": 2, "added": 1, "removed": 0, "changed": 1, "moved": 1, "split": 0,
            "merged": 0, "words_added": 6, "words_removed": 1, "title_changed": True,
            "cutoffs": [],
        },
    }  # fmt: skip


def test_split_and_merge_entries_list_their_parts() -> None:
    first, second = BUDGET[2].split(", which ")
    split = story([*BUDGET[:2], first + ".", "They carry " + second.removeprefix("carry ")])
    entry = record(story(BUDGET[:3]), split)["blocks"][2]
    assert (entry["op"], entry["old"], entry["new"]) == ("split", 2, [2, 3])
    assert entry["kind"] == ["paragraph", "paragraph"] and len(entry["words"]) == 2
    merged = story([*BUDGET[:2], BUDGET[2] + " " + BUDGET[3]])
    entry = record(story(BUDGET[:4]), merged)["blocks"][2]
    assert (entry["op"], entry["old"], entry["new"], entry["kind"]) == (
        "merged", [2, 3], 2, "paragraph"
    )  # fmt: skip


def test_a_block_re_marked_as_heading_is_kept_with_its_old_kind_noted() -> None:
    old = story(["Reaction", BUDGET[1]])
    new = story(["Reaction", BUDGET[1]], kinds={0: "heading"})
    entry = record(old, new)["blocks"][0]
    assert entry == {
        "op": "kept", "old": 0, "new": 0, "kind": "heading", "old_kind": "paragraph",
        "text": "Reaction",
    }  # fmt: skip


def test_revisions_diff_like_their_articles() -> None:
    old, new = story(BUDGET), story(BUDGET[1:])
    assert diff_revisions(revision(1, old), revision(2, new)) == diff_revisions(old, new)


# -- properties ------------------------------------------------------------------------

PARAGRAPH = st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=3).map(". ".join)
KIND = st.sampled_from(["paragraph", "paragraph", "paragraph", "heading", "quote"])
BLOCKS = st.lists(st.tuples(PARAGRAPH, KIND), max_size=9)


@st.composite
def revision_pairs(draw: st.DrawFn) -> tuple[Article, Article]:
    """An article and a later revision made by the edits newsrooms make."""
    old = draw(BLOCKS)
    new = list(old)
    for _ in range(draw(st.integers(0, 6))):
        action = draw(
            st.sampled_from(["edit", "insert", "delete", "move", "split", "merge", "copy"])
        )
        if action == "insert" or not new:
            new.insert(draw(st.integers(0, len(new))), (draw(PARAGRAPH), draw(KIND)))
            continue
        at = draw(st.integers(0, len(new) - 1))
        text, kind = new[at]
        if action == "edit":
            words = text.split()
            words[draw(st.integers(0, len(words) - 1))] = draw(
                st.sampled_from(["4.5", "not", "Berg"])
            )
            new[at] = (" ".join(words), kind)
        elif action == "delete":
            del new[at]
        elif action == "move":
            new.insert(draw(st.integers(0, len(new) - 1)), new.pop(at))
        elif action == "split" and ". " in text:
            head, tail = text.split(". ", 1)
            new[at : at + 1] = [(head + ".", kind), (tail, kind)]
        elif action == "merge" and at + 1 < len(new):
            new[at : at + 2] = [(text + " " + new[at + 1][0], kind)]
        elif action == "copy":
            new.insert(draw(st.integers(0, len(new))), new[at])
    title = draw(st.sampled_from(["Council approves budget", "Council approves 4.5m budget"]))
    return (
        Article("Council approves budget", tuple(Block(t, k) for t, k in old)),
        Article(title, tuple(Block(t, k) for t, k in new)),
    )


HOSTILE = st.builds(
    lambda title, texts: Article(title, tuple(Block(t) for t in texts)),
    st.text(max_size=30),
    st.lists(st.text(max_size=60), max_size=6),
)


@settings(max_examples=150)
@given(revision_pairs())
def test_replaying_the_diff_on_the_old_revision_gives_the_new_one(
    pair: tuple[Article, Article],
) -> None:
    old, new = pair
    rebuilt = replay(old, record(old, new))
    assert (rebuilt.title, rebuilt.blocks) == (new.title, new.blocks)


@given(HOSTILE, HOSTILE)
def test_any_text_at_all_diffs_and_replays(old: Article, new: Article) -> None:
    rebuilt = replay(old, record(old, new))
    assert (rebuilt.title, rebuilt.blocks) == (new.title, new.blocks)


@given(revision_pairs())
def test_an_article_against_itself_is_all_kept(pair: tuple[Article, Article]) -> None:
    article = pair[0]
    found = record(article, article)
    assert found["title"]["op"] == "kept"
    assert {entry["op"] for entry in found["blocks"]} <= {"kept"}
    assert not diff_revisions(article, article).changed


@given(revision_pairs())
def test_summary_counts_agree_with_the_entries(pair: tuple[Article, Article]) -> None:
    found = record(*pair)
    summary = found["summary"]
    ops = [entry["op"] for entry in found["blocks"]]
    for op in ("kept", "added", "removed", "changed", "moved", "split", "merged"):
        assert summary[op] == ops.count(op), op
    assert (summary["words_added"], summary["words_removed"]) == words_in(found["blocks"])
    assert summary["title_changed"] == (found["title"]["op"] == "changed")


def words_in(entries: list[dict[str, Any]]) -> tuple[int, int]:
    added = removed = 0
    for entry in entries:
        if entry["op"] == "added":
            added += count_words(entry["text"])
        if entry["op"] == "removed":
            removed += count_words(entry["text"])
        words = entry.get("words", [])
        parts = words if entry["op"] in ("split", "merged") else [words]
        for part in parts:
            added += sum(count_words(text) for op, text in part if op == "+")
            removed += sum(count_words(text) for op, text in part if op == "-")
    return added, removed


@given(revision_pairs())
def test_the_same_revisions_always_give_the_same_json(pair: tuple[Article, Article]) -> None:
    first = json.dumps(diff_revisions(*pair).to_dict(), sort_keys=True)
    again = json.dumps(diff_revisions(*pair).to_dict(), sort_keys=True)
    assert first == again


@given(revision_pairs())
def test_new_positions_come_in_reading_order(pair: tuple[Article, Article]) -> None:
    positions = [j for entry in diff_revisions(*pair).blocks for j in entry.new]
    assert positions == list(range(len(pair[1].blocks)))


# -- choosing the pair ---------------------------------------------------------------------


def revision(number: int, article: Article) -> Revision:
    observed = Observation(
        url="https://news.example.org/a",
        observed_at=datetime(2026, 11, 30, number, tzinfo=UTC),
        article=article,
        extractor="tests/1",
    )
    return Revision("doc", number, observed, "sha256:" + "0" * 64, 1, None, "sha256:" + "1" * 64)


HISTORY = [revision(n, story(BUDGET[:n])) for n in (1, 2, 3, 4)]


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [(None, None, (3, 4)), (None, 3, (2, 3)), (2, None, (2, 4)), (1, 3, (1, 3))],
)
def test_the_default_pair_is_the_newest_and_to_alone_means_its_predecessor(
    start: int | None, end: int | None, expected: tuple[int, int]
) -> None:
    old, new = choose_pair(HISTORY, document="doc", from_number=start, to_number=end)
    assert (old.number, new.number) == expected


@pytest.mark.parametrize(
    ("history", "start", "end", "message"),
    [
        (HISTORY, None, 9, "has no revision 9; its revisions are 1 to 4"),
        (HISTORY, 0, None, "has no revision 0"),
        (HISTORY, None, 1, "revision 1 of 'doc' is the first; it has no predecessor"),
        (HISTORY, 4, None, "revision 4 of 'doc' is the newest; nothing to compare it with"),
        (HISTORY[:1], None, None, "document 'doc' has 1 revision; a diff needs two"),
    ],
)
def test_an_impossible_pair_is_a_clear_error(
    history: list[Revision], start: int | None, end: int | None, message: str
) -> None:
    with pytest.raises(RevisionNotFoundError, match=message):
        choose_pair(history, document="doc", from_number=start, to_number=end)
