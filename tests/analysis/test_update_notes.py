"""Update notes are not corrections, in every language the project reads, and the notice
of an edit is technical (only a date moved) or proper (a note), after the 2024 IEEE S&P
study of news edits, which separates the two."""

from __future__ import annotations

import pytest

from quietedit.analysis import classify_change
from quietedit.analysis.notes import CORRECTION, UPDATE, note_kind
from quietedit.article.wording import LANGUAGES
from quietedit.model import Article, Block, Publisher

BODY = (
    "The regional council approved the new bridge over the river on Thursday.",
    "Construction is expected to start in the spring and last three years.",
)

# as the newsrooms of each language word them under an updated story
UPDATE_NOTES = {
    "en": (
        "This story has been updated with additional reporting.",
        "Updated at 14:30 with comment from the ministry.",
        "Editor's note: This story has been updated to include a statement from the police.",
    ),
    "de": (
        "Aktualisiert am 13. November: Stellungnahme der Stadt ergänzt.",
        "Dieser Artikel wurde aktualisiert.",
        "Der Artikel wurde um eine Stellungnahme des Ministeriums ergänzt.",
    ),
    "fr": (
        "Mis à jour le 4 juin à 11h30 : ajout de la réaction du ministre.",
        "Ce texte a été mis à jour avec la réaction du maire.",
        "Article actualisé à 12h avec de nouveaux chiffres.",
    ),
    "es": ("Este artículo ha sido actualizado con nueva información.",),
    "it": ("Articolo aggiornato alle 11:30 con la replica del ministro.",),
    "pt": ("Este artigo foi atualizado com novas informações.",),
    "nl": ("Dit artikel is bijgewerkt met een reactie van de minister.",),
    "pl": ("Artykuł został zaktualizowany.",),
    "sv": ("Artikeln har uppdaterats med nya uppgifter.",),
    "ja": ("【更新】午後3時30分、大臣の発言を追加しました。",),
    "zh": ("本文已更新。",),
    "ko": ("기사가 업데이트되었습니다.",),
}

CORRECTIONS = (
    "An earlier version of this article misstated the cost of the bridge.",
    "Update: An earlier version misstated the date of the vote.",
    "This story has been updated to correct the name of the minister.",
    "This article was updated to reflect a correction.",
    "Korrektur: In einer früheren Version hieß es, die Brücke koste 48 Millionen Euro.",
    "Rectificatif : une version précédente de cet article indiquait un coût erroné.",
)


def test_every_language_read_has_update_notes_here() -> None:
    assert set(UPDATE_NOTES) == set(LANGUAGES)


def added(note: str, *, publisher: Publisher | None = None) -> Article:
    return Article(
        "Council approves bridge", tuple(map(Block, (*BODY, note))), publisher or Publisher()
    )


OLD = Article("Council approves bridge", tuple(map(Block, BODY)), Publisher())


@pytest.mark.parametrize(
    "note", [n for notes in UPDATE_NOTES.values() for n in notes], ids=lambda n: n[:30]
)
def test_an_update_note_is_an_update_note_and_never_a_correction(note: str) -> None:
    assert note_kind(note) == UPDATE
    result = classify_change(OLD, added(note))
    assert "update-note" in result.kinds and "correction" not in result.kinds
    assert result.notice == "proper" and result.silent is False


@pytest.mark.parametrize("note", CORRECTIONS, ids=lambda n: n[:30])
def test_a_note_that_admits_an_error_is_a_correction_even_when_it_says_updated(note: str) -> None:
    assert note_kind(note) == CORRECTION
    result = classify_change(OLD, added(note))
    assert "correction" in result.kinds and "update-note" not in result.kinds
    assert result.notice == "proper"


def test_prose_that_uses_the_words_of_a_note_is_no_note() -> None:
    for text in (
        "The minister misstated the figures, the opposition said.",
        "The timetable will be updated with the new stops next week.",
        "Die Liste wurde aktualisiert, sagte die Sprecherin.",
    ):
        assert note_kind(text) is None, text


def test_only_a_moved_date_is_a_technical_notice() -> None:
    old = Article("Council approves bridge", tuple(map(Block, BODY)),
                  Publisher(date_modified="2026-11-28T09:00:00Z"))  # fmt: skip
    changed = (BODY[0].replace("Thursday", "Friday"), BODY[1])
    new = Article("Council approves bridge", tuple(map(Block, changed)),
                  Publisher(date_modified="2026-11-28T15:00:00Z"))  # fmt: skip
    result = classify_change(old, new)
    assert result.silent is False and result.notice == "technical"
    assert result.to_dict()["notice"] == "technical"
    # an "Updated" line that moved is a technical notice too
    line_old = Article(old.title, new.blocks, Publisher(updated_line="Updated 9:00 a.m."))
    line_new = Article(old.title, old.blocks, Publisher(updated_line="Updated 3:00 p.m."))
    assert classify_change(line_old, line_new).notice == "technical"


def test_a_note_makes_the_notice_proper_whatever_else_moved_and_none_is_silent() -> None:
    dated = Publisher(date_modified="2026-11-28T15:00:00Z")
    note = "Correction: an earlier version gave the cost as 48 million euros."
    old = Article(OLD.title, OLD.blocks, Publisher(date_modified="2026-11-28T09:00:00Z"))
    assert classify_change(old, added(note, publisher=dated)).notice == "proper"
    in_notes = Article(OLD.title, OLD.blocks, Publisher(notes=(note,)))
    assert classify_change(OLD, in_notes).notice == "proper"
    silent = classify_change(OLD, Article(OLD.title, OLD.blocks[:1], Publisher()))
    assert silent.silent is True and silent.notice == "none"
    assert silent.to_dict()["notice"] == "none"
