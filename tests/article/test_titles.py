"""The headline is the <h1> the page's metadata agrees with, else the metadata's own title."""

from __future__ import annotations

from quietedit.article.metadata import PageMeta
from quietedit.article.titles import choose_title

META = PageMeta(
    html_title="City council passes the budget | Lakeside Herald",
    og_title="City council passes the budget",
    site_name="Lakeside Herald",
)


def test_the_h1_sharing_most_words_with_the_metadata_is_the_headline() -> None:
    h1s = ["Lakeside Herald", "Council passes budget after long night", "City council passes"]
    assert choose_title(META, h1s) == "City council passes"


def test_among_equally_agreeing_h1s_the_first_is_the_headline() -> None:
    h1s = ["Weather", "Council passes budget", "Budget passes council", "council budget"]
    assert choose_title(META, h1s) == "Council passes budget"


def test_an_h1_the_metadata_does_not_agree_with_gives_way_to_the_metadata() -> None:
    assert choose_title(META, ["Menu", "Lakeside weather today"]) == (
        "City council passes the budget"
    )


def test_without_metadata_titles_the_first_h1_is_the_headline() -> None:
    assert choose_title(PageMeta(), ["", "First", "Second"]) == "First"
