"""Versioning rules: what one new observation of an article means for the archive (pure).

- The first good observation becomes revision 1.
- A content hash equal to the newest revision's, or to the last observation's, is no news.
- A content hash equal to an *earlier* revision's is a flip-flop (an A/B test, a revert):
  an event, recorded once per switch, never a new edit.
- An extraction that looks broken is an anomaly, never an edit: nothing extracted, a
  consent, paywall or bot wall, or most of the text gone at once. Walls and empty pages
  never become revisions. A text cut short *the same way* on ``CONFIRM_TRUNCATION``
  consecutive observations is believed — publishers do cut stories, and a story cut after
  a complaint is among the edits readers most need to see — and stored as a revision.
- Anything else is a new revision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from quietedit.model import Article

MIN_BODY_WORDS: Final = 20
"""Fewer body words than this is no article (a brief has more, a wall page has fewer)."""

TRUNCATION_RATIO: Final = 0.4
TRUNCATION_MIN_WORDS: Final = 150
"""Losing more than 60 % of a text of at least 150 words in one step is a fetch anomaly."""

CONFIRM_TRUNCATION: Final = 3
"""Consecutive identical observations after which a cut-down text is believed."""

WALL_MAX_WORDS: Final = 200
"""Walls are short: a page this long that merely mentions cookies is an article, unless it
is also less than half as long as the newest revision (a wall with a long legal text)."""

# Phrases of consent, paywall and bot walls, in English and German: each needs a short page
# around it (WALL_MAX_WORDS) to count.
WALL_PATTERNS: Final = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("bot wall", r"\b(are you a robot|verify (that )?you are (a )?human|checking your browser"
         r"|unusual traffic|captcha|just a moment\.\.\.|access denied|403 forbidden"
         r"|attention required)"),
        ("javascript wall", r"\b(please )?(enable|activate) javascript\b"
         r"|\bbitte aktivieren sie javascript\b"),
        ("consent wall", r"\b(we (and our partners )?use cookies|accept (all )?cookies"
         r"|cookie (settings|consent)|your privacy choices|cookies akzeptieren"
         r"|datenschutzeinstellungen)\b"),
        ("paywall", r"\b(subscribe (now )?to (continue|read)|to continue reading"
         r"|already a subscriber|subscribers only|for subscribers|sign in to read"
         r"|jetzt abonnieren|weiterlesen mit|nur für abonnenten|abo abschließen)\b"),
    )
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Known:
    """What the archive knows of a document when a new observation arrives.

    ``revision_hashes`` are the content hashes of revisions 1..n in order;
    ``newest_words`` the body word count of revision n; ``last_seen`` the content hash of
    the last observation (which differs from revision n after a flip-flop or an anomaly);
    ``anomaly_hash``/``anomaly_count`` the cut-down text being confirmed, if any.
    """

    revision_hashes: tuple[str, ...] = ()
    newest_words: int = 0
    last_seen: str | None = None
    anomaly_hash: str | None = None
    anomaly_count: int = 0


Action = Literal["store", "unchanged", "flip-flop", "anomaly"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with an observation, and why.

    ``revision`` is the revision a flip-flop went back to; ``record_event`` says whether
    this observation is news worth an event (the first of a run of identical ones).
    """

    action: Action
    reason: str
    revision: int | None = None
    record_event: bool = True


def body_words(article: Article) -> int:
    """Words in the body blocks (the title not counted)."""
    return sum(len(block.text.split()) for block in article.blocks)


def wall_reason(article: Article, *, newest_words: int = 0) -> str | None:
    """The kind of wall ``article`` is (consent, paywall, bot, JavaScript), or ``None``."""
    words = body_words(article)
    if words > max(WALL_MAX_WORDS, newest_words // 2):
        return None
    text = " ".join([article.title, *(block.text for block in article.blocks)])
    for name, pattern in WALL_PATTERNS:
        match = pattern.search(text)
        if match:
            return f"{name} ({match.group(0)!r})"
    return None


def judge(article: Article, *, fingerprint: str, known: Known) -> Verdict:
    """The verdict on one observation of ``article`` whose content hash is ``fingerprint``."""
    hashes = known.revision_hashes
    if hashes and fingerprint == hashes[-1]:
        # back from an earlier revision's content is a switch worth recording; back from
        # a broken fetch is just the article again
        if known.last_seen in hashes[:-1]:
            return Verdict("flip-flop", f"back to revision {len(hashes)}", len(hashes))
        return Verdict("unchanged", "same content as the newest revision", record_event=False)
    repeat = fingerprint == known.last_seen
    words = body_words(article)
    wall = wall_reason(article, newest_words=known.newest_words)
    if wall is not None:
        return Verdict("anomaly", wall, record_event=not repeat)
    if words < MIN_BODY_WORDS:
        return Verdict(
            "anomaly", f"only {words} body words were extracted", record_event=not repeat
        )
    if fingerprint in hashes:
        number = hashes.index(fingerprint) + 1
        return Verdict("flip-flop", f"back to revision {number}", number, record_event=not repeat)
    if _is_truncation(words, known):
        seen = known.anomaly_count + 1 if fingerprint == known.anomaly_hash else 1
        if seen < CONFIRM_TRUNCATION:
            reason = f"text cut from {known.newest_words} to {words} words"
            return Verdict("anomaly", reason, record_event=not repeat)
        return Verdict("store", f"cut to {words} words, confirmed {seen} times in a row")
    return Verdict("store", "first revision" if not hashes else "content changed")


def next_known(known: Known, verdict: Verdict, *, fingerprint: str, words: int) -> Known:
    """``known`` after acting on ``verdict`` for an observation hashed ``fingerprint``."""
    if verdict.action == "store":
        return Known(
            revision_hashes=(*known.revision_hashes, fingerprint),
            newest_words=words,
            last_seen=fingerprint,
        )
    truncated = verdict.action == "anomaly" and _is_truncation(words, known)
    same = truncated and fingerprint == known.anomaly_hash
    return Known(
        revision_hashes=known.revision_hashes,
        newest_words=known.newest_words,
        last_seen=fingerprint,
        anomaly_hash=fingerprint if truncated else None,
        anomaly_count=(known.anomaly_count + 1 if same else 1) if truncated else 0,
    )


def _is_truncation(words: int, known: Known) -> bool:
    return (
        known.newest_words >= TRUNCATION_MIN_WORDS and words < TRUNCATION_RATIO * known.newest_words
    )
