"""Volatile spans are masked out of the content hash, and nothing else is."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from quietedit.article.fingerprint import content_hash, fingerprint_text, fold_text
from quietedit.article.masks import MASKS, Mask, mask_volatile
from quietedit.model import Article, Block

EXAMPLES = [(mask.name, text, masked) for mask in MASKS for text, masked in mask.examples]
KEEPS = [(mask.name, text) for mask in MASKS for text in mask.keeps]


def test_every_mask_has_examples_and_look_alikes() -> None:
    assert len({mask.name for mask in MASKS}) == len(MASKS)
    for mask in MASKS:
        assert mask.examples and mask.keeps, mask.name


@pytest.mark.parametrize(
    ("name", "text", "masked"), EXAMPLES, ids=[f"{n}:{t}" for n, t, _ in EXAMPLES]
)
def test_mask_masks_its_examples(name: str, text: str, masked: str) -> None:
    mask = next(mask for mask in MASKS if mask.name == name)
    assert mask.apply(text) == masked
    assert mask_volatile(text) == masked


@pytest.mark.parametrize(("name", "text"), KEEPS, ids=[f"{n}:{t}" for n, t in KEEPS])
def test_no_mask_touches_the_look_alikes(name: str, text: str) -> None:
    assert mask_volatile(text) == text


# The cases the task names, in full sentences as pages show them.
MASKED = [
    ("Updated 5 minutes ago", "Updated 50 minutes ago"),
    ("Posted an hour ago", "Posted 3 hours ago"),
    ("just now", "2 min ago"),
    ("Aktualisiert vor 3 Stunden", "Aktualisiert vor einer Minute"),
    ("gerade eben", "vor 12 Minuten"),
    ("Updated 10:42 GMT", "Updated 11:03 GMT"),
    ("Stand: 14:05 Uhr", "Stand: 16:40 Uhr"),
    ("Stand: 30.11.2026, 14:05 Uhr", "Stand: 01.12.2026, 09:12 Uhr"),
    (
        "By Ana Ruiz | Updated Monday 30 November 2026 10:42 GMT",
        "By Ana Ruiz | Updated Tuesday 1 December 2026 08:01 GMT",
    ),
    (
        "Share this: https://example.com/s?sid=4f1c2a9b",
        "Share this: https://example.com/s?sid=77aa01c3",
    ),
    ("session 9f86d081884c7d659a2feaa0c55ad015", "session 2c26b46b68ffc68ff99b453c1d304134"),
    ("1,234 comments", "1,301 comments"),
    ("12 Kommentare", "15 Kommentare"),
    ("3.4K views", "12K views"),
    ("Share 57", "Share 61"),
    ("Ana Ruiz · 4 min read · 1.2K views", "Ana Ruiz · 4 min read · 1.3K views"),
]


@pytest.mark.parametrize(("before", "after"), MASKED, ids=[b for b, _ in MASKED])
def test_volatile_changes_do_not_change_the_fingerprint(before: str, after: str) -> None:
    assert fingerprint_text(before) == fingerprint_text(after)
    assert fingerprint_text(before) != fold_text(before)


# Prose that looks volatile but is the news: every change here must change the hash.
EDITS = [
    ("The meeting lasted 5 minutes.", "The meeting lasted 50 minutes."),
    ("3 people died.", "4 people died."),
    ("The wall fell 30 years ago.", "The wall fell 35 years ago."),
    ("She was arrested three days ago.", "She was arrested four days ago."),
    (
        "The agency received 1,234 comments on the rule.",
        "The agency received 1,243 comments on the rule.",
    ),
    ("The parties share 57 percent of the vote.", "The parties share 75 percent of the vote."),
    ("The train left at 10:42.", "The train left at 11:42."),
    (
        "The report, published 12 March, showed a rise.",
        "The report, published 13 March, showed a rise.",
    ),
    ("Die Sitzung dauerte 5 Minuten.", "Die Sitzung dauerte 6 Minuten."),
    ("Er wurde vor zwei Tagen festgenommen.", "Er wurde vor drei Tagen festgenommen."),
    ("Turnout was 61 percent, up from 58.", "Turnout was 16 percent, up from 58."),
    ("Updated 10:42 GMT: two people were hurt.", "Updated 10:42 GMT: three people were hurt."),
]


@pytest.mark.parametrize(("before", "after"), EDITS, ids=[b for b, _ in EDITS])
def test_an_edit_in_prose_changes_the_hash(before: str, after: str) -> None:
    assert content_hash(Article("Budget", (Block(before),))) != content_hash(
        Article("Budget", (Block(after),))
    )


def test_the_title_is_masked_too() -> None:
    first = Article("Live: council votes on budget - updated 5 minutes ago", (Block("Text."),))
    later = Article("Live: council votes on budget - updated 2 hours ago", (Block("Text."),))
    assert content_hash(first) == content_hash(later)
    edited = Article("Live: council rejects budget - updated 2 hours ago", (Block("Text."),))
    assert content_hash(edited) != content_hash(later)


def test_a_live_page_refetched_is_the_same_revision() -> None:
    def fetch(minutes: int, comments: str, clock: str) -> Article:
        return Article(
            "Council approves budget after late-night debate",
            (
                Block(f"By Ana Ruiz | Updated {clock} GMT | {comments} comments"),
                Block("The city council approved a budget of 4.2 million euros on Monday."),
                Block(f"Latest: {minutes} minutes ago"),
            ),
        )

    assert content_hash(fetch(5, "1,204", "10:42")) == content_hash(fetch(48, "1,377", "11:25"))


def test_masks_are_plain_values() -> None:
    mask = MASKS[0]
    assert isinstance(mask, Mask)
    with pytest.raises(AttributeError):
        mask.name = "other"  # type: ignore[misc]


VOCABULARY = st.sampled_from(
    ["Updated", "updated", "Stand:", "vor", "einer", "Minute", "ago", "minutes", "hours", "an",
     "hour", "just", "now", "gerade", "eben", "5", "12", "1,234", "3.4K", "10:42", "14:05", "Uhr",
     "GMT", "comments", "Kommentare", "views", "Share", "|", "·", "-", "sid=", "abc", "people",
     "died", "30", "November", "2026,", "9f86d081884c7d659a2feaa0", "aGVsbG8gd29ybGQgdGhpcyBpcw8x",
     "(", ")", "The", "council", "percent", "{count}", "Tagen", "Stunden"]
)  # fmt: skip


@given(st.lists(VOCABULARY, max_size=30).map(" ".join))
@example("5 Kommentare 5")  # one count's noun is the next one's label
@example("3.4K Kommentare 5")
def test_masking_is_idempotent_on_volatile_looking_text(text: str) -> None:
    once = fingerprint_text(text)
    assert fingerprint_text(once) == once
    assert mask_volatile(once) == once


@given(st.text(max_size=300))
def test_fingerprint_text_is_idempotent_on_any_text(text: str) -> None:
    once = fingerprint_text(text)
    assert fingerprint_text(once) == once


NOUNS = st.sampled_from(
    ["people", "percent", "euros", "votes", "cases", "minutes", "hours", "days", "seats",
     "Menschen", "Prozent", "Stimmen", "Minuten", "Stunden", "Tage"]
)  # fmt: skip
WORDS = st.lists(
    st.sampled_from(["The", "council", "said", "on", "Monday", "that", "nach"]), max_size=6
)


@given(WORDS, st.integers(min_value=0, max_value=100_000), NOUNS, WORDS)
def test_a_changed_number_in_prose_always_changes_the_hash(
    before: list[str], number: int, noun: str, after: list[str]
) -> None:
    def sentence(n: int) -> Article:
        text = " ".join([*before, f"{n:,}", noun, *after]) + "."
        return Article("Budget", (Block(text),))

    assert content_hash(sentence(number)) != content_hash(sentence(number + 1))
