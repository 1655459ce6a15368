"""The tables of ``quietedit export sqlite`` and what each column means (pure).

One :class:`Table` per table: its columns with their SQLite types and descriptions, its
primary key, its foreign keys and the columns its full-text index covers. The writer
(:mod:`quietedit.export.sqlite`) creates the tables from these, and the Datasette
metadata (:mod:`quietedit.export.datasette`) describes them from the same text, so the
two never disagree. A new table is one more :class:`Table` here and one rows function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: str  # "TEXT", "INTEGER" or "REAL"
    description: str


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    description: str
    columns: tuple[Column, ...]
    pk: tuple[str, ...]
    foreign_keys: tuple[tuple[str, str, str], ...] = ()  # (column, other table, its column)
    search: tuple[str, ...] = ()  # columns of its FTS5 index, ``<name>_fts``
    indexes: tuple[tuple[str, ...], ...] = ()

    @property
    def without_rowid(self) -> bool:
        """Whether the table is stored in its primary key's order alone (``WITHOUT ROWID``):
        every table whose key is not one integer, except those with a full-text index (an
        FTS5 index with external content refers to its rows by rowid). Such a table holds
        its key once, not once in the table and again in its key's index."""
        integer_key = len(self.pk) == 1 and self.column(self.pk[0]).type == "INTEGER"
        return not integer_key and not self.search

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def create_sql(self) -> str:
        """The table's ``CREATE TABLE`` statement, in the form sqlite-utils writes."""
        single = self.pk[0] if len(self.pk) == 1 else None
        references = {column: (other, key) for column, other, key in self.foreign_keys}
        lines = []
        for c in self.columns:
            line = f'   "{c.name}" {c.type}'
            if c.name == single:
                line += " PRIMARY KEY"
            if c.name in references:
                other, key = references[c.name]
                line += f' REFERENCES "{other}"("{key}")'
            lines.append(line)
        if single is None:
            lines.append("   PRIMARY KEY (" + ", ".join(f'"{c}"' for c in self.pk) + ")")
        suffix = " WITHOUT ROWID" if self.without_rowid else ""
        return f'CREATE TABLE "{self.name}" (\n' + ",\n".join(lines) + f"\n){suffix}"


def _c(name: str, kind: str, description: str) -> Column:
    return Column(name, kind, description)


def _json(name: str, description: str) -> Column:
    return Column(name, "TEXT", f"{description} (JSON)")


SOURCES: Final = Table(
    "sources",
    "Every source: a feed or homepage of feeds.yaml or of the archive's feed records, or a "
    "host whose articles came from no configured feed.",
    (
        _c("slug", "TEXT", "The source's slug, as in feeds.yaml and on the site"),
        _c("name", "TEXT", "Its name (feeds.yaml, else its feed record, else the slug)"),
        _c("url", "TEXT", "The feed's or homepage's URL; null for a source known by its host"),
        _c("kind", "TEXT", "feed, homepage, or host (articles of a host no feed names)"),
        _c("active", "INTEGER", "1 while feeds.yaml lists it, 0 once removed, null for a host"),
    ),
    ("slug",),
)

DOCUMENTS: Final = Table(
    "documents",
    "Every article the archive holds, one row per document (canonical URL).",
    (
        _c("id", "TEXT", "The document id, derived from the canonical URL"),
        _c("source", "TEXT", "The source it is listed under (as on the site)"),
        _c("url", "TEXT", "Its canonical URL"),
        _c("partition", "TEXT", "Its folder in the archive: the day it was first seen"),
        _c("status", "TEXT", "active, gone, redirected, retired …, as the archive records it"),
        _c("discovered_at", "TEXT", "When a feed or page first listed it (UTC)"),
        _c(
            "published",
            "TEXT",
            "When the publisher says it was published, in UTC, from the first revision's "
            "metadata (null when it gave no date with a time zone)",
        ),
        _c("first_observed", "TEXT", "When its first revision was observed (UTC)"),
        _c("last_observed", "TEXT", "When its newest revision was observed (UTC)"),
        _c("revisions", "INTEGER", "How many revisions the archive holds"),
        _c("edits", "INTEGER", "Edits: revisions after the first"),
        _c("title", "TEXT", "The newest revision's title"),
        _c("language", "TEXT", "The language the newest revision's page declares"),
        _c("blocks", "INTEGER", "How many blocks its newest revision has"),
        _c(
            "blocks_not_in_first",
            "INTEGER",
            "Of them, the blocks not in its first revision (added or changed later): its "
            "provenance rows whose since is not revision 1",
        ),
        _c(
            "blocks_changed_since",
            "INTEGER",
            "Of them, the blocks whose text changed after they appeared: its provenance rows "
            "whose basis is last-changed",
        ),
    ),
    ("id",),
    (("source", "sources", "slug"),),
    indexes=(("source",), ("blocks_not_in_first",)),
)

REVISIONS: Final = Table(
    "revisions",
    "Every revision of every document, as the archive's revision files record it.",
    (
        _c("id", "TEXT", "<document>/<number>"),
        _c("document", "TEXT", "The document"),
        _c("number", "INTEGER", "Its number, from 1"),
        _c("observed_at", "TEXT", "When it was fetched (UTC)"),
        _c("title", "TEXT", "The headline"),
        _c("url", "TEXT", "The address the page was read at"),
        _c("blocks", "INTEGER", "How many body blocks it has"),
        _c("content_hash", "TEXT", "sha256 of the folded, masked title and blocks"),
        _c("hash", "TEXT", "The revision's hash in the document's chain"),
        _c("previous", "TEXT", "The hash of the revision before (null for revision 1)"),
        _c("extractor", "TEXT", "The extractor version that read the page"),
        _c("evidence_file", "TEXT", "The WARC file holding the raw response"),
        _c("evidence_record", "TEXT", "Its WARC-Record-ID"),
        _c("evidence_sha256", "TEXT", "sha256 of the response body as fetched"),
        _c("date_published", "TEXT", "The publisher's datePublished, as written"),
        _c("date_modified", "TEXT", "The publisher's dateModified, as written"),
        _c("updated_line", "TEXT", "A visible 'Updated …' line on the page"),
        _json("authors", "The byline's authors"),
        _json("notes", "Correction and update notes shown on the page"),
    ),
    ("id",),
    (("document", "documents", "id"),),
    search=("title",),
    indexes=(("document", "number"),),
)

TEXTS: Final = Table(
    "texts",
    "Each distinct block text of a document, once (kept blocks share their row). "
    "texts_fts searches them all; texts_removed_fts only those the document's newest "
    "revision no longer has (text taken out, or changed into another).",
    (
        _c(
            "id",
            "INTEGER",
            "The text's number: its document's slot (its day and its rank in the day) "
            "and its place in the document, so a full export and an update agree",
        ),
        _c("document", "TEXT", "The document it is from"),
        _c("text", "TEXT", "The block's text"),
    ),
    ("id",),
    (("document", "documents", "id"),),
    search=("text",),
)

BLOCKS: Final = Table(
    "blocks",
    "The body of every revision, one row per block in reading order.",
    (
        _c("revision", "TEXT", "The revision"),
        _c("position", "INTEGER", "The block's place in the revision, from 0"),
        _c("document", "TEXT", "The document"),
        _c("number", "INTEGER", "The revision's number"),
        _c("kind", "TEXT", "paragraph, heading, list-item or quote"),
        _c("text", "INTEGER", "The block's text (texts.id)"),
    ),
    ("revision", "position"),
    (
        ("revision", "revisions", "id"),
        ("document", "documents", "id"),
        ("text", "texts", "id"),
    ),
    indexes=(("text",),),
)

EDITS: Final = Table(
    "edits",
    "Every edit: the diff and classification of a pair of consecutive revisions, as the "
    "site shows them.",
    (
        _c("id", "TEXT", "<document>/<new revision number>"),
        _c("document", "TEXT", "The document"),
        _c("old_revision", "TEXT", "The older revision"),
        _c("new_revision", "TEXT", "The newer revision"),
        _c("old_number", "INTEGER", "The older revision's number"),
        _c("new_number", "INTEGER", "The newer revision's number"),
        _c("observed_at", "TEXT", "When the newer revision was observed (UTC)"),
        _c("significance", "TEXT", "cosmetic, minor, moderate or substantive"),
        _c("silent", "INTEGER", "1 when the text changed and the publisher showed no sign"),
        _json("kinds", "The kinds of change found, sorted"),
        _c("title_changed", "INTEGER", "1 when the headline changed"),
        _c("old_title", "TEXT", "The older revision's headline"),
        _c("new_title", "TEXT", "The newer revision's headline"),
        *(
            _c(op, "INTEGER", f"Diff entries of op {op}")
            for op in ("kept", "added", "removed", "changed", "moved", "split", "merged")
        ),
        _c("words_added", "INTEGER", "Words added (title not counted)"),
        _c("words_removed", "INTEGER", "Words removed (title not counted)"),
        _json("title_words", "The headline's word diff, [op, text] runs, when it changed"),
        _json("cutoffs", "Limits the diff hit (empty for an ordinary article)"),
    ),
    ("id",),
    (
        ("document", "documents", "id"),
        ("old_revision", "revisions", "id"),
        ("new_revision", "revisions", "id"),
    ),
    indexes=(("document",), ("observed_at",)),
)

EDIT_OPS: Final = Table(
    "edit_ops",
    "The block operations of each edit: the Diff JSON's block entries other than kept.",
    (
        _c("edit", "TEXT", "The edit"),
        _c("position", "INTEGER", "The entry's place in the diff, from 0"),
        _c("op", "TEXT", "added, removed, changed, moved, split or merged"),
        _json("old", "The position (or positions, for a merge) in the older revision"),
        _json("new", "The position (or positions, for a split) in the newer revision"),
        _json("kind", "The new block's kind (one per new block for a split)"),
        _c("old_kind", "TEXT", "The old block's kind when it changed"),
        _c("similarity", "REAL", "Share of words kept in order, 2 x LCS / (old + new words)"),
        _json("words", "The word diff: [op, text] runs (one list per block for split/merged)"),
        _c("text", "TEXT", "The block's text, for an added, removed or unchanged moved block"),
    ),
    ("edit", "position"),
    (("edit", "edits", "id"),),
)

EDIT_KINDS: Final = Table(
    "edit_kinds",
    "The findings of each edit's classification: one row per kind of change.",
    (
        _c("edit", "TEXT", "The edit"),
        _c("kind", "TEXT", "headline, facts, correction, … (docs/diff-json.md)"),
        _c("significance", "TEXT", "The finding's significance"),
        _json("evidence", "Lines naming where it was found"),
        _json("sentences", "The old and new sentences that decided it, with marks"),
    ),
    ("edit", "kind"),
    (("edit", "edits", "id"),),
    indexes=(("kind",),),
)

EDIT_SIGNALS: Final = Table(
    "edit_signals",
    "The publisher signals each edit's silent verdict was decided on.",
    (
        _c("edit", "TEXT", "The edit"),
        _c("position", "INTEGER", "The signal's place in the classification, from 0"),
        _c("name", "TEXT", "The signal (a correction note, dateModified bumped, …)"),
        _c("seen", "INTEGER", "1 seen, 0 not seen, null when it could not be checked"),
        _c("evidence", "TEXT", "What was seen"),
    ),
    ("edit", "position"),
    (("edit", "edits", "id"),),
)

EVENTS: Final = Table(
    "events",
    "What happened to documents besides new revisions: gone, flip-flops, feed edits, …",
    (
        _c("id", "TEXT", "<document>/e<number>"),
        _c("document", "TEXT", "The document"),
        _c("number", "INTEGER", "The event's number, from 1"),
        _c("kind", "TEXT", "gone, restored, flip-flop, anomaly, feed-edit, …"),
        _c("observed_at", "TEXT", "When it was observed (UTC)"),
        _c("revision", "TEXT", "The revision it refers to, if any"),
        _json("detail", "Its evidence, as the archive records it"),
    ),
    ("id",),
    (("document", "documents", "id"), ("revision", "revisions", "id")),
    indexes=(("kind",),),
)

PROVENANCE: Final = Table(
    "provenance",
    "Where each block of a document's newest revision comes from, following the diffs.",
    (
        _c("document", "TEXT", "The document"),
        _c("position", "INTEGER", "The block's place in the newest revision, from 0"),
        _c("revision", "TEXT", "The newest revision"),
        _c("first_appeared", "INTEGER", "The revision number it first appeared in"),
        _c("last_changed", "INTEGER", "The revision number its text last changed in, or null"),
        _c("since", "TEXT", "Its provenance: the last change, else the first appearance"),
        _c("basis", "TEXT", "last-changed or first-appeared: which one since is"),
    ),
    ("document", "position"),
    (
        ("document", "documents", "id"),
        ("revision", "revisions", "id"),
        ("since", "revisions", "id"),
    ),
)

DERIVED: Final = Table(
    "derived",
    "Revisions read again from their stored pages by a later extractor (quietedit "
    "reextract), where it read them differently: the document's create-only derived series. "
    "The revisions table keeps the text as first observed.",
    (
        _c("id", "TEXT", "<document>/d<number>"),
        _c("document", "TEXT", "The document"),
        _c("number", "INTEGER", "The derived record's number in the document's series, from 1"),
        _c("revision", "TEXT", "The revision it reads again"),
        _c("extractor", "TEXT", "The extractor version that read it"),
        _c("title", "TEXT", "The headline as that extractor reads it"),
        _json("blocks", "The text blocks as that extractor reads them, in order"),
        _c("content_hash", "TEXT", "The hash of that title and those blocks"),
        _c("evidence_file", "TEXT", "The WARC file of the stored page it read"),
        _c("evidence_record", "TEXT", "The WARC-Record-ID of that page in the file"),
        _c("hash", "TEXT", "The derived record's own hash"),
    ),
    ("id",),
    (("document", "documents", "id"), ("revision", "revisions", "id")),
)

STORIES: Final = Table(
    "stories",
    "Articles of different sources that tell the same story, grouped as the site groups "
    "them (shared word 5-grams of the headline and first 400 words, first seen within 48 "
    "hours): one row per article of a story of two or more sources.",
    (
        _c("document", "TEXT", "The article"),
        _c("story", "TEXT", "The story: the document id of its earliest article"),
        _c("source", "TEXT", "The article's source"),
    ),
    ("document",),
    (("document", "documents", "id"), ("story", "documents", "id")),
    indexes=(("story",),),
)

FEED_ENTRIES: Final = Table(
    "feed_entries",
    "The entries each feed listed, as last seen (headline and teaser edits are events).",
    (
        _c("feed", "TEXT", "The feed's source slug"),
        _c("entry", "TEXT", "The entry's id (guid, else link, else a hash of its text)"),
        _c("link", "TEXT", "Its link"),
        _c("title", "TEXT", "Its title"),
        _c("summary", "TEXT", "Its teaser"),
        _c("published", "TEXT", "Its published date, as the feed wrote it"),
        _c("updated", "TEXT", "Its updated date, as the feed wrote it"),
        _c("observed_at", "TEXT", "When this version of the entry was seen (UTC)"),
        _c("document", "TEXT", "The archived document its link names, if any"),
    ),
    ("feed", "entry"),
    (("feed", "sources", "slug"), ("document", "documents", "id")),
    indexes=(("document",),),
)

TABLES: Final = (
    SOURCES,
    DOCUMENTS,
    REVISIONS,
    TEXTS,
    BLOCKS,
    EDITS,
    EDIT_OPS,
    EDIT_KINDS,
    EDIT_SIGNALS,
    EVENTS,
    PROVENANCE,
    DERIVED,
    STORIES,
    FEED_ENTRIES,
)
"""Every table, in the order they are created (a table after those it refers to)."""

STATE_TABLES: Final = {
    "_export": "What the export was made with, so that an update can tell whether its rows "
    "still hold (quietedit export sqlite --update).",
    "_export_documents": "Each document read, with the stamp of its files when it was "
    "read, for quietedit export sqlite --update.",
    "_export_folders": "The git tree id of each year, month and day folder of the "
    "archive's documents, for quietedit export sqlite --update.",
    "_export_story_days": "The stories grouped for each day, with the key of the day's "
    "inputs, for quietedit export sqlite --update.",
}
"""The tables an export keeps for its updates (:mod:`quietedit.export.state` makes them),
and what each is for; Datasette's metadata hides them."""
