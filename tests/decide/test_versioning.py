"""Versioning rules: new revisions, flip-flops and anomalies, decided on plain values."""

from __future__ import annotations

import pytest

from quietedit.article.fingerprint import content_hash
from quietedit.decide.versioning import (
    CONFIRM_TRUNCATION,
    Known,
    Verdict,
    body_words,
    judge,
    next_known,
    wall_reason,
)
from quietedit.model import Article, Block

LONG = tuple(
    Block(
        f"Paragraph {n}: the regional water authority said on Tuesday that reservoir "
        f"levels had fallen to {40 + n} percent, the lowest reading since records began."
    )
    for n in range(12)
)  # 12 paragraphs of 23 words


def article(*blocks: Block, title: str = "Reservoirs at record low") -> Article:
    return Article(title=title, blocks=blocks or LONG)


def observe(known: Known, art: Article) -> tuple[Verdict, Known]:
    fingerprint = content_hash(art)
    verdict = judge(art, fingerprint=fingerprint, known=known)
    return verdict, next_known(known, verdict, fingerprint=fingerprint, words=body_words(art))


def test_first_good_observation_is_stored_and_the_same_again_is_unchanged() -> None:
    verdict, known = observe(Known(), article())
    assert (verdict.action, verdict.reason) == ("store", "first revision")
    verdict, known = observe(known, article())
    assert (verdict.action, verdict.record_event) == ("unchanged", False)


def test_a_changed_text_is_a_new_revision() -> None:
    _, known = observe(Known(), article())
    edited = article(*LONG[:5], Block(LONG[5].text.replace("45 percent", "54 percent")), *LONG[6:])
    verdict, known = observe(known, edited)
    assert (verdict.action, verdict.reason) == ("store", "content changed")
    assert len(known.revision_hashes) == 2


def test_flip_flop_is_recorded_once_per_switch_and_never_stored() -> None:
    a, b = article(), article(title="Reservoirs fall to record low")
    _, known = observe(Known(), a)
    _, known = observe(known, b)  # revision 2
    verdict, known = observe(known, a)
    assert (verdict.action, verdict.revision, verdict.record_event) == ("flip-flop", 1, True)
    verdict, known = observe(known, a)  # still A: nothing new to record
    assert (verdict.action, verdict.record_event) == ("flip-flop", False)
    verdict, known = observe(known, b)  # and back to the newest revision
    assert (verdict.action, verdict.revision, verdict.record_event) == ("flip-flop", 2, True)
    assert len(known.revision_hashes) == 2


@pytest.mark.parametrize(
    ("title", "text", "reason"),
    [
        ("Just a moment...", "Checking your browser before accessing the site.", "bot wall"),
        ("news.example.org", "Please enable JavaScript to view this page.", "javascript wall"),
        (
            "Before you continue",
            "We use cookies and data to deliver our services. "
            "Accept all cookies or manage your privacy choices.",
            "consent wall",
        ),
        (
            "Reservoirs at record low",
            "The water authority said levels had fallen. "
            "Subscribe now to continue reading. Already a subscriber? Sign in.",
            "paywall",
        ),
        (
            "Stausee auf Rekordtief",
            "Bitte aktivieren Sie JavaScript in Ihrem Browser.",
            "javascript wall",
        ),
    ],
)
def test_walls_are_anomalies_never_revisions(title: str, text: str, reason: str) -> None:
    _, known = observe(Known(), article())
    verdict, after = observe(known, Article(title=title, blocks=(Block(text),)))
    assert verdict.action == "anomaly"
    assert verdict.reason.startswith(reason)
    assert after.revision_hashes == known.revision_hashes


def test_a_long_article_that_mentions_cookies_is_not_a_wall() -> None:
    story = article(*LONG, Block("The bakery said it would accept all cookies entered."))
    assert wall_reason(story) is None
    assert wall_reason(article(*LONG[:9], LONG[-1])) is None


def test_a_consent_wall_with_a_long_legal_text_is_still_a_wall() -> None:
    legal = Block("We use cookies and similar technologies. " + "Vendor purpose. " * 110)
    assert wall_reason(Article("Privacy", (legal,))) is None  # alone: could be an article
    assert wall_reason(Article("Privacy", (legal,)), newest_words=800) is not None


def test_an_empty_extraction_is_an_anomaly_even_for_a_new_article() -> None:
    verdict, _ = observe(Known(), Article(title="", blocks=()))
    assert (verdict.action, verdict.reason) == ("anomaly", "only 0 body words were extracted")


def test_a_text_cut_short_is_an_anomaly_until_confirmed() -> None:
    _, known = observe(Known(), article())
    cut = article(*LONG[:3])  # 69 of 276 words
    for _ in range(CONFIRM_TRUNCATION - 1):
        verdict, known = observe(known, cut)
        assert verdict.action == "anomaly"
        assert verdict.reason == "text cut from 276 to 69 words"
    verdict, known = observe(known, cut)
    assert verdict.action == "store"
    assert verdict.reason == f"cut to 69 words, confirmed {CONFIRM_TRUNCATION} times in a row"


def test_a_truncation_interrupted_by_the_full_text_starts_counting_again() -> None:
    _, known = observe(Known(), article())
    cut = article(*LONG[:3])
    _, known = observe(known, cut)
    verdict, known = observe(known, article())
    assert verdict.action == "unchanged"  # back from a broken fetch: not a flip-flop
    for _ in range(CONFIRM_TRUNCATION - 1):
        verdict, known = observe(known, cut)
        assert verdict.action == "anomaly"


def test_recovery_from_a_wall_is_not_a_flip_flop() -> None:
    _, known = observe(Known(), article())
    _, known = observe(known, Article(title="Just a moment...", blocks=(Block("captcha"),)))
    verdict, _ = observe(known, article())
    assert verdict.action == "unchanged"


def test_a_short_german_story_about_approval_ratings_is_not_a_consent_wall() -> None:
    story = Article(
        "Zustimmung zur Koalition sinkt",
        (
            Block(
                "Die Zustimmung zur Regierung ist im November auf 31 Prozent gefallen, wie "
                "eine neue Umfrage zeigt; im Oktober waren es noch 35 Prozent."
            ),
        ),
    )
    assert wall_reason(story) is None
