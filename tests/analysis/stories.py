"""News stories written for these tests, and the edits newsrooms make to them.

Each story is a tuple of paragraphs in the style of a regional news site; the tests build
the old and new revisions from them so that every alignment case and every kind of
change is a realistic edit of realistic prose.
"""

from __future__ import annotations

from quietedit.model import Article, Block, Publisher

BUDGET = (
    "The city council approved a budget of 4.2 million euros on Monday, after a debate "
    "that ran past midnight and ended in a vote of 31 to 24.",
    "Council leader Maria Okafor said the vote was “a fair compromise between the "
    "districts” and thanked the opposition for its proposals on public transport.",
    "Opposition members had asked for more money for the northern bus lines, which "
    "carry about 18,000 passengers a day and have not been extended since 2011.",
    "The budget sets aside 600,000 euros for repairs to three primary schools, including "
    "the roof of the Lindenweg school that was closed for two weeks in October.",
    "Property taxes will rise by 1.5 percent, the first increase in six years, while "
    "fees for sports halls and the municipal swimming pool stay the same.",
    "The treasurer, Jonas Berg, warned that the city would have to borrow again next "
    "year if the regional government did not pay its share of the new tram depot.",
    "Residents can read the full budget on the council's website and comment on it "
    "until the end of January, when it goes to the regional authority for approval.",
)

STORM = (
    "A storm with gusts of up to 120 kilometres an hour swept across the coast on "
    "Tuesday night, tearing roofs off houses and cutting power to thousands of homes.",
    "The harbour authority closed the port at 9 p.m. and ordered ferries to stay in "
    "port until the wind drops below gale force, which forecasters expect by Thursday.",
    "Firefighters were called out more than 300 times, mostly to fallen trees on roads "
    "and flooded cellars in the old town, a spokesman for the fire service said.",
    "A 64-year-old man was taken to hospital after a tree fell on his car near the "
    "ring road; his injuries are not life-threatening, according to the police.",
    "Schools in the coastal districts will stay closed on Wednesday, the education "
    "office announced shortly after midnight.",
)

HEALTH = (
    "Waiting times at the regional hospital's emergency department have doubled since "
    "the spring, according to figures released by the health authority on Friday.",
    "Patients who arrived by ambulance waited an average of 47 minutes to be seen in "
    "November, compared with 23 minutes in April.",
    "“We are seeing more patients with nowhere else to go,” said Dr. Ines Duarte, who "
    "leads the department. “Family doctors in the valley are retiring and nobody replaces them.”",
    "The authority said it would open a second walk-in clinic in the north of the city "
    "next year and hire 40 more nurses.",
)


def story(
    paragraphs: tuple[str, ...] | list[str],
    *,
    title: str = "Council approves budget after late-night debate",
    publisher: Publisher | None = None,
    kinds: dict[int, str] | None = None,
) -> Article:
    """An article from paragraphs; ``kinds`` marks some positions as headings or quotes."""
    kinds = kinds or {}
    return Article(
        title=title,
        blocks=tuple(Block(text, kinds.get(n, "paragraph")) for n, text in enumerate(paragraphs)),
        publisher=publisher or Publisher(date_published="2026-11-30T05:40:00Z"),
    )


def edited(paragraphs: tuple[str, ...], position: int, old: str, new: str) -> list[str]:
    """The paragraphs with ``old`` replaced by ``new`` in one of them (which must contain it)."""
    changed = list(paragraphs)
    assert old in changed[position], (old, changed[position])
    changed[position] = changed[position].replace(old, new)
    return changed
