"""Watched terms: whole-word, case-insensitive, Unicode-aware matching; what counts as an
edit adding or removing a term; safe, stable slugs; and the config's checks of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from quietedit.analysis.watch import TermChange, normal, term_changes, term_pattern, term_slug
from quietedit.config import parse_config
from quietedit.config.values import InvalidValueError, parse_terms
from quietedit.errors import ConfigError


@pytest.mark.parametrize(
    ("term", "text", "found"),
    [
        ("Merz", "Kanzler Merz sagte", ["Merz"]),
        ("Merz", "die Merz-Regierung", ["Merz"]),  # a hyphen ends a word
        ("Merz", "MERZ und merz", ["MERZ", "merz"]),  # any case
        ("Merz", "aus Merzig, im Kommerz", []),  # closed compounds: not the term
        ("Minister", "die Ministerin und die Minister", ["Minister"]),  # plural/feminine: no
        ("Klima*", "Klima, Klimawandel und Klimas", ["Klima", "Klimawandel", "Klimas"]),
        ("Ärzte", "die ärzte streiken", ["ärzte"]),  # non-ASCII case
        ("Café", "im Cafe\u0301 am Markt", ["Café"]),  # NFD text, NFC term (normalised first)
        ("Olaf Scholz", "Olaf  Scholz und Olaf\u00a0Scholz", ["Olaf Scholz", "Olaf Scholz"]),
        ("Зеленский", "Президент Зеленский заявил", ["Зеленский"]),
        ("C++", "C++ and C#", ["C++"]),  # regex characters are literal
    ],
)
def test_a_term_matches_whole_words_regardless_of_case(
    term: str, text: str, found: list[str]
) -> None:
    # the text as term_changes reads it: NFC, blanks made one space
    assert [m.group() for m in term_pattern(term).finditer(normal(text))] == found


def test_an_edit_adds_or_removes_a_term_when_its_count_changes() -> None:
    old = ["Haushalt", "Bürgermeister Wegner verteidigte die Pläne.", "Merz schwieg."]
    new = ["Haushalt", "Die Merz-Regierung und Merz kündigten Hilfen an."]
    changes = term_changes(["Merz", "Wegner", "Haushalt"], old, new)
    assert changes == (
        TermChange(
            "Merz", "merz", "added", "Die ", "Merz", "-Regierung und Merz kündigten Hilfen an."
        ),
        TermChange(
            "Wegner", "wegner", "removed", "Bürgermeister ", "Wegner", " verteidigte die Pläne."
        ),
    )
    # the same count on both sides is no change, even if the sentence around it changed
    assert term_changes(["Haushalt"], ["Der Haushalt wächst."], ["Der Haushalt schrumpft."]) == ()


def test_the_excerpt_keeps_a_few_words_around_the_term() -> None:
    words = " ".join(f"w{n}" for n in range(20))
    (change,) = term_changes(["Merz"], [], [f"{words} Merz {words}"])
    assert change.before == "… w14 w15 w16 w17 w18 w19 "
    assert change.after == " w0 w1 w2 w3 w4 w5 …"


@pytest.mark.parametrize(
    ("term", "slug"),
    [
        ("Merz", "merz"),
        ("Olaf Scholz", "olaf-scholz"),
        ("Klima*", "klima-prefix"),
        ("Käse", "kase"),
        ("../../etc/passwd", "etc-passwd"),
    ],
)
def test_slugs_are_ascii_and_safe(term: str, slug: str) -> None:
    assert term_slug(term) == slug


def test_a_term_beyond_ascii_gets_a_stable_hashed_slug() -> None:
    slug = term_slug("Зеленский")
    assert slug.startswith("term-") and len(slug) == len("term-") + 8
    assert slug == term_slug("зеленский")  # the same term in another case: the same feed
    assert term_slug("Straße") == term_slug("STRASSE") == "strasse"  # folded: ß is ss
    for term in ("Зеленский", "北京", "Straße", "..", "a/b\\c"):
        assert set(term_slug(term)) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ([""], "is empty"),
        (["x" * 101], "longer than 100 characters"),
        ("Merz", None),
        ({"Merz": 1}, "not a list of terms"),
        ([3], "not text"),
        (["a*b"], "may only end a term"),
        (["Kase", "Käse"], "share the feed address watch/kase.xml"),
        (["…"], "no letter or digit"),
        (["Merz\u200b"], "control or formatting character"),
    ],
)
def test_terms_are_checked(value: object, problem: str | None) -> None:
    if problem is None:
        assert parse_terms(value) == ("Merz",)
        return
    with pytest.raises(InvalidValueError, match=problem):
        parse_terms(value)


def test_a_feeds_watch_list_is_checked_with_its_path() -> None:
    document = {
        "feeds": [
            {"url": "https://news.example.org/rss.xml", "name": "News", "watch": ["Merz", ""]},
            {"url": "https://other.example.org/rss.xml", "name": "Other", "watch": "Merz"},
        ],
        "settings": {"watch": "Wegner, Klima*"},
    }
    with pytest.raises(ConfigError) as caught:
        parse_config(document, environ={}, source="feeds.yaml", base_dir=Path("/base"))
    (problem,) = caught.value.problems
    assert "feeds[0].watch" in problem and "is empty" in problem
    document["feeds"][0]["watch"] = ["Merz", "merz", "Olaf Scholz"]  # type: ignore[index]
    config = parse_config(document, environ={}, source="feeds.yaml", base_dir=Path("/base"))
    assert config.feeds[0].watch == ("Merz", "Olaf Scholz")  # a repeat in another case: once
    assert config.feeds[1].watch == ("Merz",)
    assert config.settings.watch == ("Wegner", "Klima*")
