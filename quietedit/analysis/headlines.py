"""What a change does to a headline's statement (pure): a clause of its own put in or
cut, the kicker's colon taken in or out, and a place given where the colon went.

A headline's words are never a passage, so a clause put into a headline or cut from it
is a rewording, and the names in it go with it; ``reading.py`` asks these rules before it
calls a name of a headline's change a changed fact.
"""

from __future__ import annotations

from typing import Final

from quietedit.analysis.changedfacts import inside
from quietedit.analysis.phrases import located, word_count
from quietedit.analysis.sides import Side
from quietedit.analysis.verdicts import Span
from quietedit.analysis.words import Hunk

CLAUSE_MARKS: Final = frozenset(",;\u2013\u2014-")
"""What sets a clause of its own apart in a headline: a comma or a dash."""


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
