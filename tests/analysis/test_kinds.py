"""The kinds real edits were miscalled as: facts paired across clauses, credit lines, names
written shorter, words a page ran together; update notes told from corrections; and the
sentences a reader can check each call against."""

from __future__ import annotations

import pytest

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.findings import Sentence, sentence_at
from quietedit.model import Article, Block, Publisher
from tests.analysis.stories import BUDGET, edited, story

WIRE = (
    "The Senate passed a short-term spending bill late on Tuesday by a vote of 52-48, "
    "sending it to President Daniel Harper with hours to spare.",
    "The measure keeps agencies open through November 21 and adds $6 billion in disaster aid "
    "for states hit by this summer's floods.",
    "The White House said President Daniel Harper would sign the bill as soon as it reached "
    "his desk.",
    "The agency's response was led by the California Department of Forestry and Fire "
    "Protection, which sent 400 firefighters.",
)


def classify(old: Article, new: Article) -> Classification:
    return classify_change(old, new)


def wire(paragraphs: list[str] | tuple[str, ...]) -> Article:
    return story(paragraphs, title="Senate passes stopgap bill")


# -- facts compare the changed phrase, never words from elsewhere --------------------------


def test_a_clause_replaced_by_another_is_removed_and_added_not_a_changed_name() -> None:
    old = wire(
        ["The show, which opened on Broadway in 2019, will close early, its producers said."]
    )
    new = wire(
        ["The show, which lost money every week this summer, will close early, its producers said."]
    )
    result = classify(old, new)
    assert {"added", "removed"} <= result.kinds and "facts" not in result.kinds


def test_a_name_removed_in_one_clause_is_not_paired_with_a_day_added_in_another() -> None:
    old = wire([WIRE[1]])
    new = wire(
        [
            WIRE[1].replace(
                "adds $6 billion in disaster aid for states hit by this summer's floods",
                "delays a pay raise for members of Congress until after Saturday's vote",
            )
        ]
    )
    result = classify(old, new)
    assert "facts" not in result.kinds
    assert result.evidence("added") and result.evidence("removed")


def test_a_number_changed_in_a_reworded_sentence_is_a_fact_and_a_rewording() -> None:
    old = wire(
        ["About 400 firefighters were on the lines by nightfall, with more crews on Friday."]
    )
    new = wire(
        [
            "About 400 firefighters were battling the blaze by nightfall, with more crews "
            "on Saturday."
        ]
    )
    result = classify(old, new)
    assert result.evidence("facts") == ("block 1: Friday → Saturday",)
    assert "style" in result.kinds


def test_a_fact_that_moved_within_the_paragraph_did_not_change() -> None:
    old = wire(["In 2019 the show opened on Broadway to strong reviews."])
    new = wire(["The show opened on Broadway in 2019 to strong reviews."])
    assert "facts" not in classify(old, new).kinds


# -- credit and contributor lines ----------------------------------------------------------


def test_a_contributor_line_added_is_a_credit_not_facts_or_added_text() -> None:
    credit = "Evan Pike, Kelly Marsh and Jonah Weiss contributed to this report."
    result = classify(wire(WIRE), wire([*WIRE, credit]))
    assert result.kinds == {"byline"}
    assert result.evidence("byline") == (f"block 5: credit line added: “{credit}”",)


def test_a_credit_line_that_grows_is_a_byline_change() -> None:
    old = wire([*WIRE, "Ledger reporter Tom Becker contributed to this report."])
    new = wire([*WIRE, "Ledger reporters Tom Becker and Nadia Haddad contributed to this report."])
    result = classify(old, new)
    assert result.kinds == {"byline"}
    (sentence,) = result.sentences("byline")
    marked = [sentence.new[a:b] for a, b in sentence.new_marks]
    assert marked == ["reporters", "and Nadia Haddad"]


@pytest.mark.parametrize(
    "line",
    [
        "Reporting by Ana Ruiz; Editing by Tom Weber",
        "Mitarbeit: Lena Vogt, Sina Kraus",
        "Jane Doe contributed reporting from Kyiv.",
    ],
)
def test_credit_lines_in_several_forms_are_credits(line: str) -> None:
    assert classify(wire(WIRE), wire([*WIRE, line])).kinds == {"byline"}


def test_prose_that_mentions_a_report_is_not_a_credit_line() -> None:
    line = "She contributed to this report in 2019 as a witness for the committee."
    assert "byline" not in classify(wire(WIRE), wire([*WIRE, line])).kinds


# -- a name written shorter or longer ------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "old", "new"),
    [
        (2, "said President Daniel Harper would", "said Harper would"),
        (3, "the California Department of Forestry and Fire Protection", "Cal Fire"),
        (0, "sending it to President Daniel Harper", "sending it to Harper"),
    ],
)
def test_a_name_written_shorter_is_style_not_a_removed_fact(
    position: int, old: str, new: str
) -> None:
    result = classify(wire(WIRE), wire(edited(WIRE, position, old, new)))
    assert "facts" not in result.kinds and "removed" not in result.kinds
    assert "style" in result.kinds


def test_a_name_written_in_full_or_as_initials_is_style() -> None:
    old = wire(["Trump met Biden in Washington, where officials from FEMA briefed them."])
    new = wire(
        [
            "Donald Trump met Joe Biden in Washington, where officials from the Federal "
            "Emergency Management Agency briefed them."
        ]
    )
    assert "facts" not in classify(old, new).kinds


def test_a_surname_replaced_by_another_is_still_a_changed_fact() -> None:
    old = wire(["A spokesperson, Luis Ortega, said the agency would appeal."])
    new = wire(["A spokesperson, Luis Navarro, said the agency would appeal."])
    assert classify(old, new).evidence("facts") == ("block 1: Ortega → Navarro",)


# -- words a page ran together -------------------------------------------------------------


def test_a_space_restored_in_a_name_is_a_typo_even_beside_a_real_rewording() -> None:
    old = wire(["The National Weather Servicewarned of a storm surge and heavy rain inland."])
    new = wire(["The National Weather Service warned of a storm surge and torrential rain inland."])
    assert classify(old, new).kinds == {"lede", "style", "typo"}


def test_words_run_together_are_read_apart_where_a_capital_shows_the_lost_space() -> None:
    old = wire(["Mayor Dwayne Fontenot, a spokesperson told the LedgerThursday, ordered buses."])
    new = wire(
        ["Mayor Dwayne Fontenot, a spokesperson told the Ledger Thursday, ordered shuttles."]
    )
    result = classify(old, new)
    assert "facts" not in result.kinds and "typo" in result.kinds


def test_a_brand_written_in_capitals_is_one_word() -> None:
    german = Publisher(language="de")
    old = story(["In der Schule: Macht ChatGPT jetzt Abitur?"], publisher=german)
    new = story(["In der Schule: Macht KI jetzt Abitur?"], publisher=german)
    assert "facts" not in classify(old, new).kinds


# -- German names --------------------------------------------------------------------------


def test_in_german_a_run_of_capitals_or_a_known_place_is_a_name() -> None:
    german = Publisher(language="de")
    old = story(
        ["Im Bierzelt schimpft Hubert Aiwanger über die Ampel in Berlin."], publisher=german
    )
    new = story(["Im Bierzelt schimpft Markus Söder über die Ampel in München."], publisher=german)
    evidence = classify(old, new).evidence("facts")
    assert evidence == ("block 1: Hubert → Markus, Aiwanger → Söder; Berlin → München",)


def test_in_german_a_single_capitalised_noun_is_not_a_name() -> None:
    german = Publisher(language="de")
    old = story(["Der Meeresbiologe hat eine Theorie dazu."], publisher=german)
    new = story(["Der Meeresbiologe hat eine These dazu."], publisher=german)
    assert "facts" not in classify(old, new).kinds


def test_a_name_in_a_headline_kicker_labels_the_story() -> None:
    german = Publisher(language="de")
    old = story(["Ein Text."], title="Peking: Xi empfängt US-Außenminister", publisher=german)
    new = story(["Ein Text."], title="China: Xi empfängt US-Außenminister", publisher=german)
    assert classify(old, new).kinds == {"headline", "style"}


# -- update notes and corrections ----------------------------------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "This story has been updated with additional reporting.",
        "This story has been updated.",
        "Editor's note: This article has been updated to include a statement from the union.",
        "Aktualisiert am 13. November: Wir haben eine Stellungnahme ergänzt.",
        "Dieser Artikel wurde aktualisiert.",
        "Mis à jour le 4 juin à 9 h 30 : ajout des horaires de la navette.",
    ],
)
def test_an_update_note_is_an_update_note_not_a_correction(note: str) -> None:
    result = classify(story(BUDGET), story([*BUDGET, note]))
    assert result.kinds == {"update-note"}
    assert not result.silent


@pytest.mark.parametrize(
    "note",
    [
        "Correction: An earlier version of this article misstated the tax rise.",
        "An earlier version of this story gave the wrong date for the vote.",
        "Korrektur: In einer früheren Version hieß es, die Steuer steige um 2 Prozent.",
        "Rectificatif : une version précédente de cet article indiquait un autre coût.",
        "Editor's note: An earlier version misidentified the treasurer.",
    ],
)
def test_a_note_admitting_an_error_is_a_correction(note: str) -> None:
    assert classify(story(BUDGET), story([*BUDGET, note])).kinds == {"correction"}


def test_a_page_note_saying_the_story_was_updated_is_an_update_note() -> None:
    note = "This article has been updated to add the council's response."
    old = story(BUDGET, publisher=Publisher(notes=()))
    new = story(edited(BUDGET, 6, "January", "February"), publisher=Publisher(notes=(note,)))
    result = classify(old, new)
    assert "update-note" in result.kinds and "correction" not in result.kinds
    assert result.evidence("update-note") == (f"note added: “{note}”",)


def test_prose_that_mentions_an_update_is_added_text_not_a_note() -> None:
    line = "Updated guidance from the ministry says schools may stay open in the storm."
    assert classify(story(BUDGET), story([*BUDGET, line])).kinds == {"added"}


# -- the sentences that decided each call --------------------------------------------------


def test_each_finding_carries_its_old_and_new_sentence_with_the_deciding_words() -> None:
    new = story(edited(BUDGET, 4, "1.5 percent", "1.8 percent"))
    (sentence,) = classify(story(BUDGET), new).sentences("facts")
    assert sentence.where == "block 5"
    assert sentence.old.startswith("Property taxes will rise by 1.5 percent")
    assert [sentence.old[a:b] for a, b in sentence.old_marks] == ["1.5"]
    assert [sentence.new[a:b] for a, b in sentence.new_marks] == ["1.8"]


def test_a_note_is_shown_with_the_words_that_make_it_one() -> None:
    note = "Correction: an earlier version of this article gave the wrong tax rise."
    (sentence,) = classify(story(BUDGET), story([*BUDGET, note])).sentences("correction")
    assert (sentence.old, sentence.new) == ("", note)
    assert [note[a:b] for a, b in sentence.new_marks] == ["Correction:"]


def test_every_kind_found_in_a_busy_edit_has_a_sentence_inside_its_text() -> None:
    old = Article("Council approves budget", tuple(Block(p) for p in BUDGET))
    changed = edited(BUDGET, 0, "4.2 million", "4.5 million")
    changed = [changed[0], changed[3], changed[1], changed[2], *changed[4:6]]
    changed.append("This story has been updated with the vote count.")
    new = Article("Council approves bigger budget", tuple(Block(p) for p in changed))
    result = classify(old, new)
    assert {"facts", "headline", "moved", "removed", "update-note"} <= result.kinds
    for found in result.findings:
        assert found.sentences, found.kind
        for sentence in found.sentences:
            assert sentence.old or sentence.new


def test_a_long_sentence_is_cut_around_its_marks() -> None:
    text = "Opening words. " + "word " * 120 + "the figure 42 here " + "word " * 120 + "end."
    at = text.index("42")
    sentence, marks = sentence_at(text, [(at, at + 2)])
    assert sentence.startswith("…") and sentence.endswith("…") and len(sentence) < 400
    assert [sentence[a:b] for a, b in marks] == ["42"]


def test_marks_outside_their_sentence_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fall inside"):
        Sentence("block 1", "short", "text", old_marks=((2, 9),))
