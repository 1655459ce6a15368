"""What publishers write about their articles, language by language (pure data).

A correction note ("Rectificatif : …", "Sprostowanie: …", "【訂正】…"), an update note
("Este artículo ha sido actualizado …"), an "Updated …" line ("Zaktualizowano: 4 czerwca
2026, 11:30", "수정 2026.06.04 11:30") and a dateline's label ("Publié le", "입력") are
written in the page's language. No maintained library lists these editorial phrases (the
dates themselves are read by dateparser: :mod:`quietedit.article.pagedates`), so they are
listed here, one :class:`Wording` per language, from how the newsrooms of that language
word them: Le Monde and Libération, El País and elDiario.es, Corriere della Sera and la
Repubblica, Público and Folha de S.Paulo ("Erramos"), NOS and NRC, Gazeta Wyborcza and
Onet, Dagens Nyheter and SVT, NHK and Asahi, the Central News Agency and Xinhua, Yonhap
and the Korean dailies ("바로잡습니다").

English and German are read by the hand-tuned patterns of
:mod:`quietedit.article.notices` and :mod:`quietedit.analysis.notes`, which came first;
every other language is read from the tables below. Phrases are written case-folded and
as :func:`quietedit.article.fingerprint.fold_text` leaves them (straight apostrophes,
``-`` for every dash). A phrase missing here only makes a rule see less; a phrase that
prose also uses would make one see too much, so a phrase that admits an error anywhere in
a text is several words long ("hemos corregido", never "corrigimos", which a spokesman
says of a fault), and a bare word counts only as a label opening a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Wording:
    """The phrases of one language (``language``: its ISO 639-1 code, as dateparser names it).

    ``correction_labels`` open a correction note and are followed by a colon or dash, or
    stand in brackets ("Rättelse:", "【訂正】"); ``correction_phrases`` admit an error
    wherever they stand in a note; ``update_phrases`` say the story was updated wherever
    they stand; ``update_labels`` open an update note or an "Updated …" line;
    ``note_labels`` open an editor's note, a correction unless an update follows;
    ``date_labels`` open (or, in Japanese, Chinese and Korean, may close) a dateline;
    ``connectors`` are the words between a label and its date or addition ("le", "am",
    "kl.").
    """

    language: str
    correction_labels: tuple[str, ...]
    correction_phrases: tuple[str, ...]
    update_phrases: tuple[str, ...]
    update_labels: tuple[str, ...]
    note_labels: tuple[str, ...]
    date_labels: tuple[str, ...]
    connectors: tuple[str, ...]

    @property
    def spaced(self) -> bool:
        """Whether the language puts spaces between words (Japanese and Chinese do not)."""
        return self.language not in UNSPACED


UNSPACED: Final = frozenset({"ja", "zh"})
"""Languages written without spaces between words: a label there is not a word of its own."""

WORDINGS: Final = (
    Wording(
        language="fr",
        correction_labels=("rectificatif", "correctif", "erratum", "correction", "précision"),
        correction_phrases=(
            "une version précédente",
            "une précédente version",
            "une version antérieure",
            "cet article a été corrigé",
            "cet article a été rectifié",
            "nous avons corrigé",
            "contrairement à ce que nous avons écrit",
            "contrairement à ce que nous indiquions",
        ),
        update_phrases=(
            "cet article a été mis à jour",
            "cet article a été actualisé",
            "cet article a été complété",
            "ce texte a été mis à jour",
            "ce texte a été actualisé",
            "cet article a été enrichi",
            "article mis à jour",
            "article actualisé",
        ),
        update_labels=("mis à jour", "mise à jour", "actualisé", "modifié", "dernière mise à jour"),
        note_labels=("note de la rédaction", "n.d.l.r.", "ndlr"),
        date_labels=("publié", "paru"),
        connectors=("le", "du", "à", "avec", "ce", "aujourd'hui"),
    ),
    Wording(
        language="es",
        correction_labels=("fe de errores", "corrección", "aclaración", "rectificación", "errata"),
        correction_phrases=(
            "una versión anterior de este",
            "una versión anterior de esta",
            "una versión previa de este",
            "una versión previa de esta",
            "este artículo ha sido corregido",
            "este artículo fue corregido",
            "esta información ha sido corregida",
            "hemos corregido",
        ),
        update_phrases=(
            "este artículo ha sido actualizado",
            "este artículo fue actualizado",
            "esta noticia ha sido actualizada",
            "esta información ha sido actualizada",
            "este texto ha sido actualizado",
        ),
        update_labels=("actualizado", "actualización", "última actualización"),
        note_labels=("nota de la redacción", "nota del editor", "n. de la r."),
        date_labels=("publicado", "fecha de publicación"),
        connectors=("el", "a las", "a la", "en", "con", "hace"),
    ),
    Wording(
        language="it",
        correction_labels=("rettifica", "errata corrige", "correzione", "precisazione"),
        correction_phrases=(
            "in una precedente versione di questo",
            "in una versione precedente di questo",
            "in una precedente versione dell'articolo",
            "questo articolo è stato corretto",
            "l'articolo è stato corretto",
            "abbiamo corretto",
        ),
        update_phrases=(
            "questo articolo è stato aggiornato",
            "l'articolo è stato aggiornato",
            "articolo aggiornato",
        ),
        update_labels=("aggiornato", "aggiornamento", "ultimo aggiornamento", "agg."),
        note_labels=("nota della redazione", "n.d.r.", "ndr"),
        date_labels=("pubblicato",),
        connectors=("il", "alle", "all'", "ore", "con", "del", "delle", "della"),
    ),
    Wording(
        language="pt",
        correction_labels=(
            "errata",
            "erramos",
            "correção",
            "correcção",
            "retificação",
            "rectificação",
        ),
        correction_phrases=(
            "uma versão anterior deste",
            "uma versão anterior desta",
            "uma versão anterior do texto",
            "este artigo foi corrigido",
            "este texto foi corrigido",
            "esta reportagem foi corrigida",
            "esta notícia foi corrigida",
        ),
        update_phrases=(
            "este artigo foi atualizado",
            "este artigo foi actualizado",
            "este texto foi atualizado",
            "esta notícia foi atualizada",
            "esta notícia foi actualizada",
            "esta reportagem foi atualizada",
        ),
        update_labels=(
            "atualizado",
            "actualizado",
            "atualização",
            "actualização",
            "última atualização",
        ),
        note_labels=("nota da redação", "nota da redacção", "nota do editor"),
        date_labels=("publicado", "publicada"),
        connectors=("em", "às", "a", "com", "há"),
    ),
    Wording(
        language="nl",
        correction_labels=("correctie", "rectificatie", "verbetering"),
        correction_phrases=(
            "in een eerdere versie van dit",
            "in een eerdere versie van het",
            "in een eerdere versie stond",
            "dit artikel is gecorrigeerd",
            "dit bericht is gecorrigeerd",
            "hebben we gecorrigeerd",
        ),
        update_phrases=(
            "dit artikel is bijgewerkt",
            "dit artikel is aangevuld",
            "dit artikel is geüpdatet",
            "dit bericht is bijgewerkt",
            "dit bericht is aangevuld",
        ),
        update_labels=("bijgewerkt", "aangepast", "laatste update", "geüpdatet"),
        note_labels=("noot van de redactie", "naschrift", "nvdr"),
        date_labels=("gepubliceerd", "geplaatst"),
        connectors=("op", "om", "met"),
    ),
    Wording(
        language="pl",
        correction_labels=("sprostowanie", "korekta", "errata"),
        correction_phrases=(
            "w poprzedniej wersji",
            "we wcześniejszej wersji",
            "artykuł został poprawiony",
            "tekst został poprawiony",
            "błędnie podaliśmy",
        ),
        update_phrases=(
            "artykuł został zaktualizowany",
            "tekst został zaktualizowany",
            "artykuł jest aktualizowany",
            "tekst jest aktualizowany",
            "informacja została zaktualizowana",
        ),
        update_labels=(
            "aktualizacja",
            "zaktualizowano",
            "aktualizowano",
            "ostatnia aktualizacja",
        ),
        note_labels=("od redakcji", "nota redakcyjna", "przypis redakcji"),
        date_labels=("opublikowano", "data publikacji", "publikacja"),
        connectors=("o", "godz.", "dnia", "z"),
    ),
    Wording(
        language="sv",
        correction_labels=("rättelse", "förtydligande", "korrigering"),
        correction_phrases=(
            "i en tidigare version av",
            "artikeln har rättats",
            "texten har rättats",
            "artikeln har korrigerats",
            "vi har rättat",
        ),
        update_phrases=(
            "artikeln har uppdaterats",
            "texten har uppdaterats",
            "artikeln är uppdaterad",
            "artikeln uppdateras",
        ),
        update_labels=("uppdaterad", "uppdaterat", "uppdatering", "senast uppdaterad"),
        note_labels=("redaktionens anmärkning", "red. anm.", "redaktionell kommentar"),
        date_labels=("publicerad", "publicerat"),
        connectors=("den", "kl.", "kl", "med", "i dag"),
    ),
    Wording(
        language="ja",
        correction_labels=("訂正", "おわびと訂正", "お詫びと訂正", "訂正とおわび"),
        correction_phrases=(
            "記事を訂正しました",
            "記事を一部訂正しました",
            "おわびして訂正します",
            "お詫びして訂正します",
        ),
        update_phrases=("記事を更新しました", "記事を一部更新しました", "追記しました"),
        update_labels=("更新", "最終更新", "更新日時", "追記"),
        note_labels=("編集部注", "編注"),
        date_labels=("公開", "配信", "掲載", "公開日", "配信日時", "投稿日"),
        connectors=("\uff1a", "日時"),
    ),
    Wording(
        language="zh",
        correction_labels=("更正", "更正啟事", "更正启事", "勘誤", "勘误", "更正聲明", "更正声明"),
        correction_phrases=("本文已更正", "本報更正", "本报更正", "特此更正"),
        update_phrases=("本文已更新", "內容已更新", "内容已更新"),
        update_labels=(
            "更新",
            "更新時間",
            "更新时间",
            "最後更新",
            "最后更新",
            "最新更新",
        ),
        note_labels=("編者按", "编者按", "編按", "编按"),
        date_labels=(
            "發布時間",
            "发布时间",
            "發佈時間",
            "發稿時間",
            "发稿时间",
            "出版時間",
            "出版时间",
            "發表時間",
            "发表时间",
            "發布",
            "发布",
        ),
        connectors=("\uff1a", "於", "于"),
    ),
    Wording(
        language="ko",
        correction_labels=("바로잡습니다", "정정", "정정보도", "알려드립니다"),
        correction_phrases=("바로잡았습니다",),
        update_phrases=(
            "기사를 업데이트했습니다",
            "내용을 추가했습니다",
            "기사가 업데이트됐습니다",
            "기사가 업데이트되었습니다",
            "기사를 수정했습니다",
        ),
        update_labels=("수정", "업데이트", "최종수정", "최종 수정", "수정일", "기사수정"),
        note_labels=("편집자주", "편집자 주"),
        date_labels=("입력", "등록", "입력일", "기사입력", "발행", "게재"),
        connectors=(),
    ),
)
"""Every language read from these tables, beside English and German."""

LANGUAGES: Final = ("en", "de", *(wording.language for wording in WORDINGS))
"""Every language whose notes, "Updated" lines and dates are recognised."""
