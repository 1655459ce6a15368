"""Words in any script: Chinese and Japanese by character, Thai by dictionary, marks kept
in their word, as wikidiff2 cuts them; and the notes of every listed language."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.analysis import segment
from quietedit.analysis.notes import CORRECTION, UPDATE, note_kind, note_opening
from quietedit.analysis.words import count_words, diff_words, similarity_codes, tokenize

CHINESE = "台北市政府今天宣布\uff0c將在明年增加五千個停車位\u3002"
JAPANESE = "東京都は4日\u3001新たに120人の感染を確認したと発表した\u3002"
THAI = "นายกรัฐมนตรีกล่าวว่ารัฐบาลจะเพิ่มงบประมาณ 5,000 ล้านบาทสำหรับโรงพยาบาล"


def test_chinese_is_cut_character_by_character() -> None:
    assert tokenize(CHINESE) == [
        *"台北市政府今天宣布",
        "\uff0c",
        *"將在明年增加五千個停車位",
        "\u3002",
    ]
    assert count_words(CHINESE) == 21


def test_japanese_kana_and_kanji_are_each_a_word_and_numbers_stay_whole() -> None:
    tokens = tokenize(JAPANESE)
    assert tokens[:7] == ["東", "京", "都", "は", "4", "日", "\u3001"]
    assert "120" in tokens


def test_a_chinese_edit_shows_only_the_characters_that_changed() -> None:
    new = CHINESE.replace("明年", "後年").replace("五千", "三千")
    assert diff_words(CHINESE, new).segments == (
        ("=", "台北市政府今天宣布\uff0c將在"),
        ("-", "明"),
        ("+", "後"),
        ("=", "年增加"),
        ("-", "五"),
        ("+", "三"),
        ("=", "千個停車位\u3002"),
    )


def test_korean_keeps_its_words_between_spaces() -> None:
    assert tokenize("서울시는 4일 새 정책을 발표했다") == [
        "서울시는 ",
        "4일 ",
        "새 ",
        "정책을 ",
        "발표했다",
    ]


def test_thai_is_cut_into_dictionary_words() -> None:
    tokens = tokenize(THAI)
    assert "".join(tokens) == THAI
    assert segment.thai_segmenter().startswith("icu4py ")
    assert tokens[:6] == ["นายก", "รัฐมนตรี", "กล่าว", "ว่า", "รัฐบาล", "จะ"]
    assert "5,000 " in tokens
    new = THAI.replace("โรงพยาบาล", "โรงเรียน")
    removed = [text for op, text in diff_words(THAI, new).segments if op == "-"]
    added = [text for op, text in diff_words(THAI, new).segments if op == "+"]
    # "hospital" (โรง+พยาบาล in ICU's dictionary) became "school" (โรงเรียน, one word)
    assert (removed, added) == (["โรงพยาบาล"], ["โรงเรียน"])


def test_without_icu_thai_is_cut_into_character_clusters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segment, "_thai_splitter", lambda: segment.thai_clusters)
    tokens = tokenize("เพิ่มงบประมาณ 2026")
    assert "".join(tokens) == "เพิ่มงบประมาณ 2026"
    # a leading vowel with its consonant, a consonant with its vowel and tone marks
    assert tokens[:3] == ["เพิ่", "ม", "ง"]
    assert tokens[-1] == "2026"


def test_combining_marks_stay_in_their_word() -> None:
    assert tokenize("नमस्ते दुनिया") == ["नमस्ते ", "दुनिया"]
    assert tokenize("مُحَمَّد قال") == ["مُحَمَّد ", "قال"]
    assert tokenize("e\u0301te\u0301 cafe\u0301") == ["e\u0301te\u0301 ", "cafe\u0301"]


def test_similarity_counts_chinese_characters_as_words() -> None:
    old, new = similarity_codes([CHINESE, CHINESE.replace("五", "三")])
    assert len(old) == 21
    assert sum(a == b for a, b in zip(old, new, strict=True)) == 20


def test_plain_text_is_tokenised_as_before() -> None:
    text = "The council voted 9-4 on Wednesday, a “compromise” nobody loved."
    assert not segment.needs_segmenting(text)
    assert tokenize(text)[:4] == ["The ", "council ", "voted ", "9-4 "]


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            [
                *"ab 12,.-'",
                *"台北市年月日",
                "\u3001",
                "\u3002",
                *"ไทยเพิ่มงบ",
                "\u0301",
                *"서울",
                *"שָׁלוֹם",
            ]
        ),
        max_size=40,
    )
)
def test_tokens_join_back_to_the_text(text: str) -> None:
    assert "".join(tokenize(text)) == text
    assert all(token for token in tokenize(text))


@pytest.mark.parametrize(
    ("note", "kind", "opening"),
    [
        ("Rectificatif : une version précédente indiquait 298 voix.", CORRECTION, "Rectificatif :"),
        ("Mise à jour du 4 juin à 11h30 : ajout de la réaction.", UPDATE, "Mise à jour"),
        ("Fe de errores: Una versión anterior atribuía la frase.", CORRECTION, "Fe de errores:"),
        (
            "Este artículo ha sido actualizado con la reacción.",
            UPDATE,
            "Este artículo ha sido actualizado",
        ),
        ("Rettifica: in una precedente versione di questo articolo.", CORRECTION, "Rettifica:"),
        ("Aggiornamento delle 11:30: aggiunta la reazione.", UPDATE, "Aggiornamento"),
        ("Erramos: diferentemente do que foi publicado.", CORRECTION, "Erramos:"),
        ("Correctie: in een eerdere versie van dit artikel stond.", CORRECTION, "Correctie:"),
        ("Dit artikel is bijgewerkt met de reactie.", UPDATE, "Dit artikel is bijgewerkt"),
        ("Sprostowanie: W poprzedniej wersji podaliśmy.", CORRECTION, "Sprostowanie:"),
        ("Aktualizacja, godz. 11:30: dodaliśmy komentarz.", UPDATE, "Aktualizacja"),
        ("Rättelse: I en tidigare version av artikeln.", CORRECTION, "Rättelse:"),
        ("Artikeln har uppdaterats med ministerns svar.", UPDATE, "Artikeln har uppdaterats"),
        ("【訂正】見出しの数字を訂正しました。", CORRECTION, "訂正】"),
        ("追記\uff1a都知事のコメントを加えました。", UPDATE, "追記"),
        ("更正\uff1a本文稍早誤植部長姓名。", CORRECTION, "更正\uff1a"),
        ("編者按\uff1a本文已更新部長回應。", UPDATE, "編者按"),
        ("[바로잡습니다] 부상자 수를 잘못 표기했습니다.", CORRECTION, "바로잡습니다]"),
        ("수정: 기사 내용을 추가했습니다.", UPDATE, "수정"),
    ],
)
def test_notes_in_every_listed_language_are_told_apart(note: str, kind: str, opening: str) -> None:
    assert note_kind(note) == kind
    assert note_opening(note) == opening


@pytest.mark.parametrize(
    "prose",
    [
        "Le ministre a été mis à jour sur la situation.",
        "El Gobierno ha actualizado las cifras de paro.",
        "首相は発言を訂正した。",
        "정부는 법안을 수정했다.",
        "Uppdaterad statistik visar att arbetslösheten sjunker.",
    ],
)
def test_prose_that_uses_the_words_is_no_note(prose: str) -> None:
    assert note_kind(prose) is None
