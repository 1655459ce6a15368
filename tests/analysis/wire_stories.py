"""A wire story as three outlets run it, and unrelated stories that share boilerplate,
written for the story-grouping tests.

The wire copy is the agency's; each outlet puts its own headline and first paragraph on
it, trims or rephrases a sentence or two, cuts the tail and adds its own furniture (a
newsletter box, a "more on this" line, the agency's copyright line), as news sites do.
"""

from __future__ import annotations

WIRE = (
    "Rescue teams in the northern port of Haldvik worked through the night on Tuesday to "
    "reach dozens of people trapped after a section of the harbour wall collapsed during a "
    "storm surge, officials said.",
    "The regional emergency service said 14 people had been taken to hospital, three of "
    "them in a serious condition, and that at least 20 others were still unaccounted for "
    "as of early Wednesday morning.",
    "Video shared by residents showed waves breaking over the seafront promenade and "
    "parked cars being swept into the inner basin shortly after 9 p.m., when the tide was "
    "at its highest point of the month.",
    "“We heard a sound like thunder and then the water was in the street,” said Marit "
    "Solberg, who runs a bakery on the harbour front. “People were climbing onto the roofs "
    "of their cars.”",
    "The harbour master, Tore Lindqvist, told reporters the wall had been inspected in "
    "March and that repairs to a 60-metre section had been scheduled for the spring, "
    "after engineers found cracks in the concrete.",
    "The national weather agency had issued a red warning for the coast on Monday, "
    "forecasting gusts of up to 140 kilometres an hour and a surge of more than two metres "
    "above the normal high tide.",
    "Prime Minister Ingrid Haave said she would travel to Haldvik on Wednesday and that "
    "the government would release emergency funds for the families who had lost their "
    "homes. About 300 people spent the night in a school gymnasium.",
    "The storm also cut power to around 45,000 households along the coast and forced the "
    "closure of two bridges, the grid operator and the roads authority said.",
    "It was the third major storm to hit the region since October, and the most "
    "damaging since the floods of 2019, when two people died in the same district.",
)

AGENCY_LINE = "© 2026 Nordic Press Agency. All rights reserved. This material may not be published, broadcast, rewritten or redistributed."  # noqa: E501

OUTLET_A = (
    "Dozens missing after harbour wall collapses in Haldvik storm",
    (
        "Dozens of people are missing after part of the harbour wall in Haldvik gave way "
        "during a storm surge on Tuesday night, officials said.",
        *WIRE[1:8],
        AGENCY_LINE,
    ),
)
OUTLET_B = (
    "Haldvik: rescuers search for 20 people after sea wall breach",
    (
        "Rescuers were searching on Wednesday for at least 20 people after a storm surge "
        "broke through a section of the harbour wall in the northern port of Haldvik.",
        WIRE[1],
        WIRE[2].replace("Video shared by residents showed", "Residents filmed"),
        WIRE[3],
        WIRE[4].replace("told reporters", "said"),
        WIRE[5],
        WIRE[6],
        "Sign up for our morning briefing: the news you need, in your inbox before 7 a.m.",
    ),
)
OUTLET_C = (
    "Storm surge: what we know about the Haldvik harbour collapse",
    (
        "Here is what we know so far about the collapse of the Haldvik harbour wall.",
        WIRE[0],
        WIRE[1],
        WIRE[3],
        WIRE[4],
        WIRE[6],
        WIRE[8],
        "More on this story: live updates from the coast.",
    ),
)

BOILERPLATE = (
    "Our journalism depends on readers like you. Subscribe today for unlimited access to "
    "local news, investigations and the daily puzzle, and support independent reporting in "
    "the region for less than the price of a coffee a week. Already a subscriber? Log in "
    "to keep reading, and follow us on social media for the latest updates.",
    AGENCY_LINE,
)

TRAIN_STRIKE = (
    "Train drivers to strike for 48 hours from Friday",
    (
        "Train drivers on the eastern network will walk out for 48 hours from Friday "
        "morning after talks on pay and rosters broke down, their union said on Tuesday.",
        "The operator said it would run about one train in four on the main lines and none "
        "on the branch lines, and advised passengers to travel only if they had to.",
        "The union is asking for a rise of 7 per cent and an end to split shifts, which it "
        "says leave drivers with working days of up to 14 hours.",
        "The transport minister called the strike “deeply regrettable” and urged both "
        "sides to return to the table before the weekend.",
        *BOILERPLATE,
    ),
)
MUSEUM = (
    "City museum reopens after three-year renovation",
    (
        "The city museum reopened its doors on Saturday after a renovation that took three "
        "years and cost 28 million euros, twice the first estimate.",
        "Visitors queued around the block for the first look at the new glass roof over the "
        "central courtyard and the restored galleries of the east wing.",
        "The director, Helena Varga, said the museum expected 400,000 visitors in its first "
        "year and would open late on Thursdays through the summer.",
        "The building had been closed since 2023, when inspectors found the roof timbers "
        "rotten and the wiring unsafe.",
        *BOILERPLATE,
    ),
)

# Other articles the same two sites ran that day, with the same furniture.
BRIEFS = (
    (
        "Council approves new cycle lanes on the ring road",
        (
            "The council approved plans on Tuesday for protected cycle lanes along four "
            "kilometres of the ring road, to be built over the next two summers.",
            "Shop owners on the eastern stretch had objected to the loss of 120 parking "
            "spaces; the plan now keeps half of them in side streets.",
            *BOILERPLATE,
        ),
    ),
    (
        "Hospital waiting lists fall for the first time in five years",
        (
            "The number of patients waiting more than a year for planned surgery fell by "
            "a fifth in the last quarter, figures from the health authority show.",
            "Officials credited two new day-surgery units that opened in the spring and "
            "longer theatre hours at weekends.",
            *BOILERPLATE,
        ),
    ),
    (
        "Local club reaches cup semi-final after penalty shoot-out",
        (
            "Haldvik Athletic beat the league leaders 5-4 on penalties on Saturday to reach "
            "the semi-final of the national cup for the first time since 1998.",
            "Goalkeeper Jonas Breivik saved two penalties after the match ended 1-1 after "
            "extra time in front of a sold-out crowd.",
            *BOILERPLATE,
        ),
    ),
    (
        "School meals to be free for all pupils from January",
        (
            "All primary school pupils in the region will get a free hot lunch from "
            "January, the education committee decided on Monday.",
            "The scheme will cost about 9 million euros a year and replaces a means-tested "
            "programme that reached one pupil in three.",
            *BOILERPLATE,
        ),
    ),
)
