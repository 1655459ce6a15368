"""classify_change: every kind with its evidence, the negatives, and the significance."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.analysis import Classification, Significance, classify_change, diff_revisions
from quietedit.analysis.findings import KINDS, Finding
from quietedit.model import Article, Block, Publisher
from tests.analysis.stories import BUDGET, HEALTH, STORM, edited, story


def classify(old: Article, new: Article) -> Classification:
    return classify_change(old, new)


def kinds(old: Article, new: Article) -> set[str]:
    return set(classify(old, new).kinds)


def test_a_quote_mark_change_alone_is_a_cosmetic_typo() -> None:
    new = story(
        edited(
            BUDGET,
            1,
            "“a fair compromise between the districts”",
            '"a fair compromise between the districts"',
        )
    )
    result = classify(story(BUDGET), new)
    assert result.kinds == {"typo"}
    assert result.significance is Significance.COSMETIC
    assert result.evidence("typo")[0] == 'block 2: the vote was [-“-]{+"+}a fair compromise'


def test_a_respelt_word_is_a_minor_typo() -> None:
    old = story(edited(BUDGET, 3, "primary schools", "primary shcools"))
    result = classify(old, story(BUDGET))
    assert result.kinds == {"typo"} and result.significance is Significance.MINOR


def test_a_respelt_name_is_a_typo_not_a_changed_fact() -> None:
    old = story(edited(BUDGET, 5, "Jonas Berg", "Jonas Borg"))
    assert kinds(old, story(BUDGET)) == {"typo"}


def test_one_word_reworded_is_minor_style() -> None:
    new = story(edited(BUDGET, 5, "warned that", "cautioned that"))
    result = classify(story(BUDGET), new)
    assert result.kinds == {"style"} and result.significance is Significance.MINOR
    assert result.evidence("style") == (
        "block 6: Jonas Berg, [-warned-]{+cautioned+} that the city",
    )


def test_a_reworded_sentence_is_moderate_style() -> None:
    new = story(
        edited(
            BUDGET,
            6,
            "and comment on it until the end of January",
            "and send objections by letter before the end of January",
        )
    )
    result = classify(story(BUDGET), new)
    assert result.kinds == {"style"} and result.significance is Significance.MODERATE


@pytest.mark.parametrize(
    ("position", "old", "new", "change"),
    [
        (0, "4.2 million", "4.5 million", "4.2 → 4.5"),
        (0, "31 to 24", "30 to 25", "31 → 30, 24 → 25"),
        (4, "1.5 percent", "1,5 percent", "1.5 → 1,5"),
        (0, "on Monday", "on Tuesday", "Monday → Tuesday"),
        (5, "Jonas Berg", "Jonas Lindqvist", "Berg → Lindqvist"),
        (3, "for two weeks", "for three weeks", "two → three"),
    ],
)
def test_a_changed_number_date_or_name_is_a_substantive_fact(
    position: int, old: str, new: str, change: str
) -> None:
    result = classify(story(BUDGET), story(edited(BUDGET, position, old, new)))
    assert "facts" in result.kinds
    assert result.evidence("facts") == (f"block {position + 1}: {change}",)
    assert result.significance is Significance.SUBSTANTIVE


def test_a_name_moved_to_the_start_of_a_sentence_is_not_a_changed_name() -> None:
    old = story(["Police said Jonas Berg had left the building before noon."])
    new = story(["Jonas Berg had left the building before noon, police said."])
    assert "facts" not in kinds(old, new)


@given(st.integers(0, 999), st.integers(0, 999))
def test_a_changed_number_is_never_cosmetic(before: int, after: int) -> None:
    if before == after:
        return
    old = story([f"Firefighters were called out {before} times during the night."])
    new = story([f"Firefighters were called out {after} times during the night."])
    result = classify(old, new)
    assert "facts" in result.kinds and result.significance > Significance.COSMETIC


def test_a_changed_quotation_is_substantive() -> None:
    new = story(
        edited(BUDGET, 1, "a fair compromise between the districts", "the best we could do")
    )
    result = classify(story(BUDGET), new)
    assert "quote" in result.kinds and result.significance is Significance.SUBSTANTIVE
    assert result.evidence("quote") == (
        "quote removed: “a fair compromise between the districts”",
        "quote added: “the best we could do”",
    )


def test_a_trimmed_quotation_is_a_changed_quote() -> None:
    new = story(
        edited(
            BUDGET,
            1,
            "a fair compromise between the districts",
            "a compromise between the districts",
        )
    )
    assert classify(story(BUDGET), new).evidence("quote") == (
        "quote changed: “a fair compromise between the districts”"
        " → “a compromise between the districts”",
    )


def test_a_new_quotation_alone_is_moderate() -> None:
    quote = "“Nobody will be left without heating,” Okafor said on Tuesday evening."
    result = classify(story(BUDGET), story([*BUDGET, quote]))
    assert finding(result, "quote").significance is Significance.MODERATE
    assert result.evidence("quote") == ("quote added: “Nobody will be left without heating”",)


def test_the_headline_rewritten_is_moderate_and_a_headline_typo_cosmetic() -> None:
    rewritten = classify(story(BUDGET), story(BUDGET, title="Council passes budget as taxes rise"))
    assert "headline" in rewritten.kinds
    assert finding(rewritten, "headline").significance is Significance.MODERATE
    typo = classify(
        story(BUDGET, title="Council approves budget after late-night debate"),
        story(BUDGET, title="Council approves budget after late\u2013night debate"),
    )
    assert typo.kinds == {"headline", "typo"} and typo.significance is Significance.COSMETIC


def test_the_first_paragraph_changed_is_the_lede() -> None:
    new = story(edited(BUDGET, 0, "after a debate that ran past midnight", "after a short debate"))
    assert classify(story(BUDGET), new).evidence("lede") == (
        "block 1: the first paragraph changed",
    )


def test_a_typo_fixed_in_the_lede_is_not_a_lede_change() -> None:
    old = story(edited(BUDGET, 0, "approved", "aproved"))
    assert "lede" not in kinds(old, story(BUDGET))


def test_a_new_first_paragraph_is_a_new_lede() -> None:
    top = "Taxes will rise for the first time in six years under the budget passed on Monday."
    result = classify(story(BUDGET), story([top, *BUDGET]))
    assert {"lede", "added"} <= result.kinds
    assert result.evidence("lede")[0].startswith("block 1 now leads:")


def test_a_heading_on_top_is_not_the_lede() -> None:
    old = story(["Live updates", *BUDGET], kinds={0: "heading"})
    new = story(["Latest updates", *BUDGET], kinds={0: "heading"})
    assert "lede" not in kinds(old, new)


def test_an_added_paragraph_is_moderate_and_a_short_one_minor() -> None:
    long_ = "The regional authority has until the end of March to approve or reject the budget."
    assert (
        finding(classify(story(BUDGET), story([*BUDGET, long_])), "added").significance
        is Significance.MODERATE
    )
    assert (
        finding(classify(story(BUDGET), story([*BUDGET, "Read more:"])), "added").significance
        is Significance.MINOR
    )


def test_a_sentence_appended_to_a_paragraph_is_added_text_not_a_rewording() -> None:
    new = story(
        edited(
            BUDGET,
            4,
            "stay the same.",
            "stay the same. Parking fees will double in the city centre.",
        )
    )
    result = classify(story(BUDGET), new)
    assert result.kinds == {"added"}
    # the evidence counts the words (the diff shows them); the sentence marks them
    assert result.evidence("added") == ("block 5: 8 words",)
    [found] = [f for f in result.findings if f.kind == "added"]
    [sentence] = found.sentences
    assert sentence.new == "Parking fees will double in the city centre."
    assert sentence.new_marks == ((0, len(sentence.new)),)


def test_a_removed_paragraph_is_substantive_and_a_removed_sentence_too() -> None:
    assert (
        finding(classify(story(BUDGET), story(BUDGET[:-1])), "removed").significance
        is Significance.SUBSTANTIVE
    )
    new = story(
        edited(
            BUDGET,
            3,
            ", including the roof of the Lindenweg school that was closed for two weeks in October",
            "",
        )
    )
    result = classify(story(BUDGET), new)
    assert "removed" in result.kinds and "facts" not in result.kinds


def test_boilerplate_removed_is_minor() -> None:
    result = classify(story([*BUDGET, "Read more"]), story(BUDGET))
    assert result.kinds == {"removed"} and result.significance is Significance.MINOR


def test_a_moved_paragraph_is_moved_and_nothing_else() -> None:
    moved = [BUDGET[0], BUDGET[3], BUDGET[1], BUDGET[2], *BUDGET[4:]]
    result = classify(story(BUDGET), story(moved))
    assert result.kinds == {"moved"} and result.significance is Significance.MINOR


def test_a_split_paragraph_alone_is_cosmetic_paragraphing() -> None:
    head, tail = STORM[3].split("; ")
    new = story([*STORM[:3], head + ".", tail[0].upper() + tail[1:], STORM[4]])
    result = classify(story(STORM), new)
    assert "paragraphing" in result.kinds and "removed" not in result.kinds
    assert result.evidence("paragraphing") == ("old block 4 split into blocks 4-5",)


def test_a_correction_note_added_is_a_correction_and_a_signal() -> None:
    note = "Correction: an earlier version of this article gave the wrong tax rise."
    old = story(BUDGET, publisher=Publisher(notes=()))
    new = story(edited(BUDGET, 4, "1.5 percent", "1.8 percent"), publisher=Publisher(notes=(note,)))
    result = classify(old, new)
    assert {"correction", "facts"} <= result.kinds
    assert result.evidence("correction") == (f"note added: “{note}”",)
    assert not result.silent


def test_a_correction_written_into_the_text_counts() -> None:
    note = "An earlier version of this article said taxes would rise by 1.5 percent."
    result = classify(story(BUDGET), story([*edited(BUDGET, 4, "1.5", "1.8"), note]))
    assert "correction" in result.kinds and not result.silent


def test_an_old_note_still_there_is_no_new_correction() -> None:
    publisher = Publisher(notes=("Correction: the vote was on Monday, not Sunday.",))
    result = classify(story(BUDGET, publisher=publisher), story(BUDGET[:-1], publisher=publisher))
    assert "correction" not in result.kinds and result.silent


def test_a_new_byline_is_a_minor_byline_change() -> None:
    old = story(BUDGET, publisher=Publisher(authors=("Ana Ruiz",)))
    new = story(BUDGET[:-1], publisher=Publisher(authors=("Ana Ruiz", "Tom Weber")))
    assert classify(old, new).evidence("byline") == ("Ana Ruiz → Ana Ruiz, Tom Weber",)


MOJIBAKE = "Ms Müller from Zürich said the café on the square would reopen in spring."


def broken(text: str) -> str:
    return text.encode("utf-8").decode("cp1252")


def test_mojibake_fixed_is_an_encoding_repair_and_nothing_else() -> None:
    result = classify(story([BUDGET[0], broken(MOJIBAKE)]), story([BUDGET[0], MOJIBAKE]))
    assert result.kinds == {"encoding-repair"} and result.significance is Significance.COSMETIC
    assert "block 2: “Ã¼” → “ü” (2 times)" in result.evidence("encoding-repair")


def test_an_edit_shipped_with_an_encoding_repair_is_still_seen() -> None:
    new = MOJIBAKE.replace("in spring", "in 2028")
    result = classify(story([BUDGET[0], broken(MOJIBAKE)]), story([BUDGET[0], new]))
    assert {"encoding-repair", "facts"} <= result.kinds
    assert result.evidence("facts") == ("block 2: spring → 2028",)
    assert result.significance is Significance.SUBSTANTIVE


def test_replacement_characters_filled_in_are_an_encoding_repair() -> None:
    old = story([BUDGET[0], "Ms M\ufffdller from Z\ufffdrich said so."])
    result = classify(old, story([BUDGET[0], "Ms Müller from Zürich said so."]))
    assert result.kinds == {"encoding-repair"}
    assert result.evidence("encoding-repair") == (
        "block 2: “M\ufffdller” → “Müller”",
        "block 2: “Z\ufffdrich” → “Zürich”",
    )


def test_text_still_broken_in_the_new_revision_is_not_claimed_as_repaired() -> None:
    old = story([BUDGET[0], broken(MOJIBAKE)])
    new = story([BUDGET[0], broken(MOJIBAKE).replace("spring", "summer")])
    assert "encoding-repair" not in kinds(old, new)


def test_clean_accented_text_is_never_repaired() -> None:
    old = story(["Le café de la gare a rouvert ses portes à Genève mardi."])
    new = story(["Le café de la gare a rouvert ses portes à Genève mercredi."])
    assert "encoding-repair" not in kinds(old, new)


LIVE = "Storm live: gusts of 120 km/h hit the coast"
INDEX_OLD = (
    "Key events: 14:05 Bridge closed to traffic · 13:40 Trains halted at the coast"
    " · 12:58 Storm warning raised"
)
INDEX_NEW = (
    "Key events: 14:32 Ferries cancelled until Thursday · 14:05 Bridge closed to traffic"
    " · 13:40 Trains halted at the coast"
)
ENTRIES = (
    "14:05 The bridge over the river was closed to all traffic after a lorry overturned.",
    "13:40 Trains between the coast and the city were halted because of fallen trees.",
)
NEW_ENTRY = "14:32 Ferries are cancelled until Thursday, the harbour authority said."


def ticker(index: str, *entries: str) -> Article:
    return Article(LIVE, tuple(Block(text) for text in (index, *entries)))


def test_a_ticker_rewriting_its_index_line_and_adding_an_entry_is_minor() -> None:
    result = classify(ticker(INDEX_OLD, *ENTRIES), ticker(INDEX_NEW, NEW_ENTRY, *ENTRIES))
    assert result.kinds == {"index-line-rewrite", "live-update"}
    assert result.evidence("index-line-rewrite") == (
        "block 1: index line rewritten: 1 entry added, 1 dropped",
    )
    assert result.evidence("live-update") == ("1 timestamped entry added (block 2)",)
    assert result.significance is Significance.MINOR


def test_an_edit_inside_an_old_ticker_entry_is_still_classified() -> None:
    changed = ENTRIES[1].replace("fallen trees", "12 fallen trees")
    result = classify(
        ticker(INDEX_OLD, *ENTRIES), ticker(INDEX_NEW, NEW_ENTRY, ENTRIES[0], changed)
    )
    assert "facts" in result.kinds and result.evidence("facts") == ("block 4: added 12",)


def test_an_index_entry_reworded_is_handed_back_to_the_other_rules() -> None:
    index = INDEX_NEW.replace("Trains halted at the coast", "Trains halted on the coast line")
    result = classify(ticker(INDEX_OLD, *ENTRIES), ticker(index, NEW_ENTRY, *ENTRIES))
    assert "index-line-rewrite" in result.kinds
    assert result.evidence("style") == (
        "block 1 index entry: 13:40 Trains halted [-at-]{+on+} the coast",
        "block 1 index entry: the coast {+line+}",
    )


def test_prose_that_looks_like_an_index_line_is_not_claimed() -> None:
    old = story(
        ["Ingredients: flour · sugar · three eggs · butter", *BUDGET[:2]],
        title="Bake sale raises money",
    )
    new = story(
        ["Ingredients: flour · honey · three eggs · butter", *BUDGET[:2]],
        title="Bake sale raises money",
    )
    assert "index-line-rewrite" not in kinds(old, new)


def test_a_timestamped_paragraph_in_an_ordinary_story_is_added_not_a_live_update() -> None:
    new = story([*BUDGET, "14:30 is when the council meets again next week."])
    assert "live-update" not in kinds(story(BUDGET), new) and "added" in kinds(story(BUDGET), new)


# -- the classification as data --------------------------------------------------------------


def finding(result: Classification, kind: str) -> Finding:
    return next(f for f in result.findings if f.kind == kind)


def test_to_dict_lists_kinds_sorted_with_evidence_and_the_verdict() -> None:
    new = story(
        edited(BUDGET, 0, "4.2 million", "4.5 million"), title="Council approves bigger budget"
    )
    record: dict[str, Any] = classify_change(story(BUDGET), new).to_dict()
    assert record["kinds"] == ["facts", "headline", "lede", "style"]
    sentence = (
        "The city council approved a budget of {} million euros on Monday, after a debate "
        "that ran past midnight and ended in a vote of 31 to 24."
    )
    assert record["findings"]["facts"] == {
        "significance": "substantive",
        "evidence": ["block 1: 4.2 → 4.5"],
        "sentences": [
            {
                "where": "block 1",
                "old": sentence.format("4.2"),
                "new": sentence.format("4.5"),
                "old_marks": [[38, 41]],
                "new_marks": [[38, 41]],
            }
        ],
    }
    assert record["significance"] == "substantive" and record["silent"] is True
    assert [s["name"] for s in record["signals"]] == [
        "date-modified", "updated-line", "note", "sitemap-lastmod", "feed-updated"
    ]  # fmt: skip
    assert json.loads(json.dumps(record)) == record


def test_a_precomputed_diff_gives_the_same_classification() -> None:
    old, new = story(BUDGET), story([*BUDGET[1:], HEALTH[0]])
    assert classify_change(old, new, diff=diff_revisions(old, new)) == classify_change(old, new)


def test_every_kind_is_documented_and_an_unknown_kind_is_refused() -> None:
    import quietedit.analysis.findings as findings

    for kind in KINDS:
        assert re.search(rf"^{re.escape(kind)}\s", findings.__doc__ or "", re.MULTILINE), kind
    with pytest.raises(ValueError, match="'scoop' is not one of"):
        Finding("scoop", Significance.MINOR, ())


def test_german_nouns_are_not_taken_for_names() -> None:
    german = Publisher(language="de")
    old = story(["Der Stadtrat hat am Montag den Haushalt beschlossen."], publisher=german)
    new = story(["Der Gemeinderat hat am Montag den Haushalt beschlossen."], publisher=german)
    assert kinds(old, new) == {"lede", "style"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The storm may reach the city tonight.", "The storm could reach the city tonight."),
        ("No one was hurt, the police said.", "Nobody was hurt, the police said."),
        ("Prices rose 3 per cent in the year.", "Prices rose 3 percent in the year."),
        ("Residents plan to march on the town hall.", "Residents plan to walk to the town hall."),
    ],
)
def test_words_that_look_like_dates_or_numbers_are_not_facts(old: str, new: str) -> None:
    assert "facts" not in kinds(story([old]), story([new]))


def test_german_quotations_in_guillemets_are_read_the_german_way() -> None:
    german = Publisher(language="de")
    old = story(
        ["Der Sturm »Ian« hält auf Florida zu. Es drohen »lebensgefährliche Sturmfluten«."],
        publisher=german,
    )
    new = story(
        ["Der Sturm »Ian« hält auf Florida zu. Es drohen »schwere Sturmfluten«."],
        publisher=german,
    )
    assert classify(old, new).evidence("quote") == (
        "quote changed: “lebensgefährliche Sturmfluten” → “schwere Sturmfluten”",
    )


def test_a_compound_joined_or_hyphenated_is_a_typo() -> None:
    german = Publisher(language="de")
    old = story(["Sie sollte Gas-Importeure wie Uniper retten."], publisher=german)
    new = story(["Sie sollte Gasimporteure wie Uniper retten."], publisher=german)
    assert kinds(old, new) == {"typo"}


def test_names_in_quotation_marks_and_recapitalised_quotes_are_not_quote_changes() -> None:
    old = story(['She told the "Wall Street Journal" the plan was "a fair compromise".'])
    new = story(['She told the Journal the plan was "A fair compromise."'])
    assert "quote" not in kinds(old, new)


def test_a_change_in_block_twelve_is_no_change_of_the_lede_in_block_one() -> None:
    paragraphs = [
        f"Paragraph {n} of the report tells its part of the story in a sentence."
        for n in range(1, 14)
    ]
    old = Article("Report", tuple(Block(p) for p in paragraphs))
    changed = [
        *paragraphs[:11],
        "Paragraph 12 of the report now says 1,400 homes lost power.",
        paragraphs[12],
    ]
    new = Article("Report", tuple(Block(p) for p in changed))
    assert "lede" not in kinds(old, new)
