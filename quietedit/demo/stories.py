"""The demo newsroom's stories and the scripted edits between rounds.

The Harbour Gazette, the town of Marrowby and everyone in these stories are fictional. Each
story lists what it looks like in every round of the demo; ``None`` is a page taken down
(404). Between rounds the stories are edited the ways real articles are: a number corrected
without a word, a headline rewritten on the page and in the feed, a correction note added,
a paragraph removed, a paragraph moved, a lead changed and changed back, a page deleted.
``modified`` is the page's ``dateModified``: bumped for the acknowledged edits, left alone
for the silent ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

START: Final = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
"""The simulated clock of the first round."""
ROUND_INTERVAL: Final = timedelta(hours=6)
"""Time between rounds: every story is due again by then under the default re-check
policy (an article a few hours old is re-checked within the hour)."""
ROUNDS: Final = 4


def round_time(number: int) -> datetime:
    """The simulated time of round ``number`` (1-based)."""
    return START + (number - 1) * ROUND_INTERVAL


@dataclass(frozen=True, slots=True)
class Version:
    """One state of a story's page (and of its feed entry)."""

    headline: str
    summary: str
    paragraphs: tuple[str, ...]
    modified: datetime


@dataclass(frozen=True, slots=True)
class Story:
    """A story and what it is in each round; ``rounds[0]`` is round 1."""

    slug: str
    section: str
    author: str
    published: datetime
    edit: str  # what the demo does to it, for the summary
    rounds: tuple[Version | None, ...]

    @property
    def path(self) -> str:
        return f"/{self.section.lower()}/{self.slug}"

    def in_round(self, number: int) -> Version | None:
        return self.rounds[min(number, len(self.rounds)) - 1]


def _at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, 30, hour, minute, tzinfo=UTC)


def _same(version: Version, count: int) -> tuple[Version, ...]:
    return (version,) * count


# -- a corrected number, silently ----------------------------------------------------------

_BUDGET = (
    "Marrowby's town council approved a budget of {amount} million pounds for next year "
    "on Monday night, after a five-hour meeting that ended shortly before one in the "
    "morning.",
    "The largest increase goes to road repairs on the eastern estates, where residents "
    "have complained for two winters about potholes that the council's own survey "
    "described as dangerous.",
    "Councillor Hester Vane, who chairs the finance committee, said the plan kept council "
    'tax rises below inflation for the third year running. "Nobody got everything they '
    'asked for, which is usually a sign that a budget is fair," she said.',
    "The opposition group voted against, arguing that the library service had been cut "
    "for the fourth year in a row and that two branches would now open only three days a "
    "week.",
)
_BUDGET_V1 = Version(
    "Council approves next year's budget after late-night session",
    "Road repairs get the largest increase; libraries face shorter hours.",
    (_BUDGET[0].format(amount="48.6"), *_BUDGET[1:]),
    _at(4, 10),
)
_BUDGET_V2 = Version(
    _BUDGET_V1.headline,
    _BUDGET_V1.summary,
    (_BUDGET[0].format(amount="46.8"), *_BUDGET[1:]),
    _BUDGET_V1.modified,  # not acknowledged
)

# -- a rewritten headline, on the page and in the feed ------------------------------------

_TRAM = (
    "The extension of Marrowby's tram line to the hospital and the new housing at "
    "Saltings Park will not carry passengers before the autumn, the transport authority "
    "said on Monday.",
    "Inspectors found that the overhead line on the steep section below Castle Hill had "
    "been installed with too little clearance for the taller trams ordered in 2024. "
    "About eight hundred metres will have to be rebuilt.",
    "The authority had promised a spring opening as recently as last month. Its chief "
    "executive, Daniel Osei, said the contractor would bear the cost of the work.",
    "Replacement buses between the town centre and the hospital will keep running every "
    "ten minutes until the line opens.",
)
_TRAM_V1 = Version(
    "Tram extension opening pushed back to autumn",
    "Safety inspectors find a flaw in the overhead line below Castle Hill.",
    _TRAM,
    _at(5, 0),
)
_TRAM_V2 = Version(
    "Tram extension delayed by six months after wiring fault found on Castle Hill",
    _TRAM_V1.summary,
    _TRAM,
    round_time(2) - timedelta(minutes=40),
)

# -- a correction note ---------------------------------------------------------------------

_HOSPITAL = (
    "Patients at Marrowby General Hospital's emergency department waited on average "
    "{wait} to be seen last month, according to figures published by the health board "
    "on Monday.",
    "The board said a rise in respiratory infections had arrived earlier than usual and "
    "that forty beds had been closed for two weeks because of a norovirus outbreak on the "
    "elderly care wards.",
    "Dr Priya Lindqvist, the department's clinical lead, said staff were \"working flat "
    'out" and urged people with minor injuries to use the walk-in centre on Quay Street, '
    "which is open until ten at night.",
)
_HOSPITAL_V1 = Version(
    "Emergency waits at Marrowby General reach record high",
    "Health board blames early winter infections and a norovirus outbreak.",
    (_HOSPITAL[0].format(wait="six hours and twelve minutes"), *_HOSPITAL[1:]),
    _at(3, 30),
)
_HOSPITAL_V3 = Version(
    _HOSPITAL_V1.headline,
    _HOSPITAL_V1.summary,
    (
        _HOSPITAL[0].format(wait="four hours and twelve minutes"),
        *_HOSPITAL[1:],
        "Correction: An earlier version of this article said patients waited on average "
        "six hours and twelve minutes. The figure published by the health board is four "
        "hours and twelve minutes.",
    ),
    round_time(3) - timedelta(minutes=25),
)

# -- a removed paragraph -------------------------------------------------------------------

_FIRE = (
    "Firefighters spent most of Sunday night bringing a fire under control at a "
    "warehouse on the north quay of Marrowby harbour. Nobody was hurt.",
    "Six crews and an aerial ladder were sent to the building, which stores nets and "
    "rope for the fishing fleet, shortly after nine in the evening. Smoke could be seen "
    "from the promenade.",
    "One neighbour, who did not want to be named, said she had seen teenagers near the "
    "warehouse earlier in the evening and believed the fire had been started deliberately.",
    "The fire service said the cause was under investigation and asked anyone with "
    "photographs or video to get in touch. The harbour road will stay closed while the "
    "building is made safe.",
)
_FIRE_V1 = Version(
    "Warehouse fire on Marrowby's north quay",
    "Six crews tackled the blaze overnight; nobody was hurt.",
    _FIRE,
    _at(2, 45),
)
_FIRE_V2 = Version(
    _FIRE_V1.headline,
    _FIRE_V1.summary,
    (_FIRE[0], _FIRE[1], _FIRE[3]),
    _FIRE_V1.modified,  # not acknowledged
)

# -- a moved paragraph ---------------------------------------------------------------------

_MEALS = (
    "Every primary school pupil in Marrowby will get a free hot lunch from January, the "
    "council's education committee decided on Monday.",
    "The scheme will cost about 1.9 million pounds a year and is paid for by a grant from "
    "the regional government for the first two years.",
    "Head teachers welcomed the decision but warned that several older schools had "
    "kitchens too small to cook for every pupil at once.",
    "Parents who already pay for school meals will have their January payments refunded, "
    "the council said.",
)
_MEALS_V1 = Version(
    "Free school lunches for every primary pupil from January",
    "The council's education committee approves a two-year scheme.",
    _MEALS,
    _at(4, 50),
)
_MEALS_V3 = Version(
    _MEALS_V1.headline,
    _MEALS_V1.summary,
    (_MEALS[0], _MEALS[3], _MEALS[1], _MEALS[2]),
    _MEALS_V1.modified,  # not acknowledged
)

# -- furniture churn only ------------------------------------------------------------------

_MARATHON_V1 = Version(
    "Marathon route to avoid seafront for the first time",
    "Organisers move the course inland while the sea wall is rebuilt.",
    (
        "Next year's Marrowby Marathon will not run along the seafront for the first time "
        "in its thirty-year history, organisers announced on Monday.",
        "Work to rebuild the sea wall between the pier and the lifeboat station is due to "
        "last until the summer, so the course will instead loop through Saltings Park and "
        "the old town before finishing on Market Square.",
        "Race director Tomasz Brill said the new route was slightly hillier but would "
        "bring the race past more homes. Entries open on the first of December.",
    ),
    _at(1, 15),
)

# -- a flip-flop: A, B, A ------------------------------------------------------------------

_BRIDGE = (
    "The Swing Bridge will close to all traffic for three weeks from 5 January while its "
    "turning mechanism is replaced, the highways department said.",
    "The Swing Bridge will close to cars for three weeks from 5 January while its turning "
    "mechanism is replaced, but will stay open to pedestrians and cyclists.",
    "Drivers will be diverted over the Upper Bridge, adding up to fifteen minutes to "
    "journeys between the harbour and the station at busy times.",
    "The bridge, built in 1893, was last overhauled in the 1970s.",
)
_BRIDGE_A = Version(
    "Swing Bridge to close for three weeks in January",
    "The turning mechanism of the 1893 bridge will be replaced.",
    (_BRIDGE[0], *_BRIDGE[2:]),
    _at(5, 20),
)
_BRIDGE_B = Version(
    _BRIDGE_A.headline,
    _BRIDGE_A.summary,
    (_BRIDGE[1], *_BRIDGE[2:]),
    _BRIDGE_A.modified,
)

# -- a deleted article ---------------------------------------------------------------------

_FERRY_V1 = Version(
    "Island ferry operator in talks to sell its fleet",
    "Two ferries could change hands before the summer timetable.",
    (
        "The company that runs the ferry between Marrowby and the Skerry Isles is in talks "
        "to sell its two vessels to a Norwegian operator, according to people familiar with "
        "the negotiations.",
        "Islanders fear that a new owner could cut the winter timetable, which already "
        "offers only two crossings a day.",
        "The company declined to comment.",
    ),
    _at(0, 30),
)

STORIES: Final[tuple[Story, ...]] = (
    Story(
        "council-approves-budget",
        "News",
        "Alys Penrose",
        _at(4, 10),
        "a number corrected without a note (46.8, not 48.6) in round 2",
        (_BUDGET_V1, *_same(_BUDGET_V2, 3)),
    ),
    Story(
        "tram-extension-delayed",
        "News",
        "Ruaridh Cole",
        _at(5, 0),
        "the headline rewritten on the page and in the feed in round 2 (dateModified bumped)",
        (_TRAM_V1, *_same(_TRAM_V2, 3)),
    ),
    Story(
        "emergency-waits-record",
        "Health",
        "Alys Penrose",
        _at(3, 30),
        "a wrong figure fixed with a correction note in round 3 (dateModified bumped)",
        (_HOSPITAL_V1, _HOSPITAL_V1, _HOSPITAL_V3, _HOSPITAL_V3),
    ),
    Story(
        "north-quay-warehouse-fire",
        "News",
        "Ines Marr",
        _at(2, 45),
        "a paragraph removed without a note in round 2",
        (_FIRE_V1, *_same(_FIRE_V2, 3)),
    ),
    Story(
        "free-school-lunches",
        "Education",
        "Ruaridh Cole",
        _at(4, 50),
        "a paragraph moved without a note in round 3",
        (_MEALS_V1, _MEALS_V1, _MEALS_V3, _MEALS_V3),
    ),
    Story(
        "marathon-route-changes",
        "Sport",
        "Tomas Reyes",
        _at(1, 15),
        "nothing but the page furniture (related links, ad ids) changes: no revision",
        _same(_MARATHON_V1, 4),
    ),
    Story(
        "swing-bridge-closure",
        "News",
        "Ines Marr",
        _at(5, 20),
        "the lead changed in round 2 and changed back in round 3: a flip-flop",
        (_BRIDGE_A, _BRIDGE_B, _BRIDGE_A, _BRIDGE_A),
    ),
    Story(
        "ferry-operator-sale-talks",
        "Business",
        "Tomas Reyes",
        _at(0, 30),
        "taken down in round 3: a 404, recorded once as gone",
        (_FERRY_V1, _FERRY_V1, None, None),
    ),
)
