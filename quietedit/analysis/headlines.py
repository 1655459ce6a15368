"""What a change does to a headline's statement (pure): a clause of its own put in or
cut (set apart by a comma or a dash, or long enough to say something of its own), the
kicker's colon taken in or out, a kicker made a statement, and a place given where the
colon went.

A headline's words are never a passage, so a clause put into a headline or cut from it
is a rewording, and the names in it go with it; ``reading.py`` asks these rules before it
calls a name of a headline's change a changed fact.
"""

from __future__ import annotations

from typing import Final

from quietedit.analysis.changedfacts import inside, number_or_date
from quietedit.analysis.numberwords import is_date_word
from quietedit.analysis.phrases import located, states, word_count
from quietedit.analysis.sides import Side
from quietedit.analysis.verdicts import Span
from quietedit.analysis.words import Hunk

CLAUSE_MARKS: Final = frozenset(",;\u2013\u2014-")
"""What sets a clause of its own apart in a headline: a comma or a dash."""
CLAUSE_WORDS: Final = 3
"""Words besides its names and dates a phrase put into a headline or cut from it has at
least for them to be the phrase's own ("- nach einem Sturz im Januar"), not a date
given to the statement that stays ("- im Januar")."""


def headline_clause(hunk: Hunk, old: Side, new: Side) -> bool:
    """The change puts a clause of its own into a headline or cuts one, set apart by a
    comma or a dash up to the headline's end or a colon ("… an Viktoria Köln{+, auch VfL
    Bochum raus+}", "[-, und Peking teilt aus-]:"): a statement of its own, not a name
    given to one that stays.

    So is a change that takes the kicker's colon in or out with words beside it: the
    headline is built anew around another kicker ("[-Sofort-Abzug aus Afrika?-]{+Mali:+}
    Streit um …", "Roger Waters [-: Ex-Chef von Pink Floyd-] geht …"), and a name cut
    or put in with it is the rebuilding's, not a name given to a statement that stays
    (but see :func:`kicker_placed`)."""
    if hunk.removed.count(":") != hunk.added.count(":") and word_count(
        hunk.removed + " " + hunk.added
    ):
        return not kicker_placed(hunk, old, new)
    if kicker_restated(hunk, old, new):
        return True
    if hunk.removed and hunk.added:
        return False
    text, at, change = (
        (new.text, hunk.new_at, hunk.added) if hunk.added else (old.text, hunk.old_at, hunk.removed)
    )
    after = text[at + len(change) :].lstrip()
    return change.lstrip()[:1] in CLAUSE_MARKS and (not after or after[0] in ":?!.")


def kicker_placed(hunk: Hunk, old: Side, new: Side) -> bool:
    """The kicker's colon goes, its words staying to open the statement, and the other
    side places the statement with a preposition ("Rudy Farias [-: Teenager-]{+aus
    Houston+} galt acht Jahre als verschwunden"): a place given to the statement that
    stays, not a headline built anew around another kicker."""
    colon_side, (other, at, side) = (
        (hunk.removed, (hunk.added, hunk.new_at, new))
        if hunk.removed.count(":") > hunk.added.count(":")
        else (hunk.added, (hunk.removed, hunk.old_at, old))
    )
    if not colon_side.lstrip().startswith(":") or ":" in other:
        return False
    return any(
        f.name and located(side.read, f.start)
        for f in inside(side.facts, Span(at, at + len(other)))
    )


def kicker_restated(hunk: Hunk, old: Side, new: Side) -> bool:
    """The change is inside the words before the headline's colon on both sides, and
    those words go from a topic label to a statement of their own or back
    ("[-Tabellenführer-] Leverkusen {+schlägt Borussia Dortmund+}: …"): a clause of
    its own put in or cut, whose names are its own, not names given to a statement that
    stays."""
    old_colon, new_colon = old.text.find(":"), new.text.find(":")
    if old_colon <= 0 or new_colon <= 0:
        return False
    if hunk.old_at + len(hunk.removed) > old_colon or hunk.new_at + len(hunk.added) > new_colon:
        return False
    return states(old.text[:old_colon]) != states(new.text[:new_colon])


def clause_of_its_own(hunk: Hunk, changed: tuple[tuple[str, str], ...]) -> bool:
    """The change puts into a headline or cuts from it a phrase of :data:`CLAUSE_WORDS`
    other words or more whose changed facts are names and dates only ("Bühne [-- nach einem
    Sturz im Januar-]", "Eindringling Jacob Miller [-aus Büro von Chuck
    Schumer-] zu …"): a clause of its own, whose names and dates go with it (a
    headline's words are never a passage). ``reading.py`` asks first whether a place is
    among them: a place given to the statement stays a fact."""
    if hunk.removed and hunk.added:
        return False
    facts = {fact.casefold() for pair in changed for fact in pair if fact}
    if any(number_or_date(fact) and not is_date_word(fact) for fact in facts):
        return False  # a number in it may be given to the statement
    words = [w.strip(".,;:!?\u2013\u2014-\"'»«") for w in (hunk.removed or hunk.added).split()]
    return len([w for w in words if w and w.casefold() not in facts]) >= CLAUSE_WORDS
