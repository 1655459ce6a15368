"""Names of one body that no rule of form can tell apart: the maintained alias list (pure
data).

Most other forms of a name follow from its words (``names.py``, ``shortforms.py``): a
surname for the full name, initials for the words ("NHS", "EU") or for a compound's parts
("BND" for "Bundesnachrichtendienst"). The forms here do not: a nickname or a translation
of the name, or a union of bodies named by its members. Each group lists forms of one
body; a change that replaces one form with another form of the same group names the same
body (``shortforms.py``), so it changes no fact.

What goes on the list: a body that news in the languages the classifier reads names in
these several ways week after week, whose forms no rule of form relates; each group with
the reason beside it. Not a person's pseudonym or a single story's two names for someone
(a person known by another name is a matter for a reader, not a list), and never a pair
taken from one labelled edit. Every form is compared as its words, case kept for capitals
("US" is not "us"), "und", "and", "&" and "/" left out, so "CDU/CSU" is "CDU und CSU";
a form of one word that is not all capitals counts only where it stands alone, not inside
a longer name ("Union Berlin", "Europäische Union").
"""

from __future__ import annotations

from typing import Final

ALIASES: Final[tuple[tuple[str, ...], ...]] = (
    # Germany's two sister parties, one parliamentary group: "die Union"
    ("Union", "CDU/CSU", "Unionsparteien"),
    # the Republican Party's nickname, the Grand Old Party
    ("GOP", "Republicans", "Republican Party"),
    # the Conservative Party's nickname
    ("Tories", "Conservatives", "Conservative Party"),
    # the Liberal Democrats' short form (its words are no initials or prefixes)
    ("Lib Dems", "Liberal Democrats"),
    # the United Nations in English and German (the German initials are not "VN")
    ("UN", "UNO", "Uno", "United Nations", "Vereinte Nationen"),
    # the United States in English and German
    ("US", "USA", "United States", "Vereinigte Staaten"),
    # the United Kingdom in English and German, and the name news gives it most
    ("UK", "United Kingdom", "Britain", "Vereinigtes Königreich", "Großbritannien"),
)
"""Each group: forms of one body (see the module's text for what belongs here)."""
