"""Datasette's ``metadata.json`` for the exported database, and its example queries (pure).

The metadata describes every table and column from :mod:`quietedit.export.schema` and
offers the example queries of docs/commands.md as Datasette "canned queries", so a reader
who opens the database in Datasette sees what each column means and five questions
already asked. The queries are tested against an export (tests/export).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from quietedit.export.schema import STATE_TABLES, TABLES
from quietedit.model import JSON


@dataclass(frozen=True, slots=True)
class Query:
    name: str
    title: str
    description: str
    sql: str


QUERIES: Final = (
    Query(
        "silent_headline_changes",
        "Silent headline changes per outlet per month",
        "Edits that changed the headline while the publisher showed no sign of an update.",
        """select d.source, substr(e.observed_at, 1, 7) as month,
  count(*) as silent_headline_changes
from edits e
join edit_kinds k on k.edit = e.id and k.kind = 'headline'
join documents d on d.id = e.document
where e.silent = 1
group by d.source, month
order by month, d.source""",
    ),
    Query(
        "early_corrections",
        "Corrections within an hour of publication",
        "Edits found to correct an error, observed within an hour of the time the publisher "
        "gives for publication (or of the first observation when it gives none).",
        """select e.id as edit, d.source, e.new_title as title,
  coalesce(d.published, d.first_observed) as published, e.observed_at,
  cast(round((julianday(e.observed_at)
    - julianday(coalesce(d.published, d.first_observed))) * 1440) as integer) as minutes
from edits e
join edit_kinds k on k.edit = e.id and k.kind = 'correction'
join documents d on d.id = e.document
where julianday(e.observed_at)
  - julianday(coalesce(d.published, d.first_observed)) <= 1.0 / 24
order by minutes, edit""",
    ),
    Query(
        "silent_fact_changes",
        "Silent changes of facts, per outlet",
        "Per source: edits, edits that changed a number, date or name, and how many of "
        "those the publisher did not acknowledge.",
        """select d.source, count(distinct e.id) as edits,
  count(distinct k.edit) as fact_changes,
  count(distinct case when e.silent = 1 then k.edit end) as silent_fact_changes
from edits e
join documents d on d.id = e.document
left join edit_kinds k on k.edit = e.id and k.kind = 'facts'
group by d.source
order by silent_fact_changes desc, d.source""",
    ),
    Query(
        "removed_text",
        "Text that was published, then taken out",
        "Full-text search (FTS5) for :phrase of the texts that the newest revision of their "
        "article no longer has (texts_removed_fts: taken out, or changed into another), "
        "with the revisions that had each.",
        """select t.document, t.text,
  min(b.number) as first_revision, max(b.number) as last_revision,
  r.number as newest_revision
from texts_removed_fts f
join texts t on t.id = f.rowid
join blocks b on b.text = t.id
join revisions r on r.document = t.document
  and r.number = (select max(number) from revisions where document = t.document)
where texts_removed_fts match :phrase
group by t.id
having max(b.number) < r.number
order by t.document, first_revision""",
    ),
    Query(
        "paragraphs_added_later",
        "Articles whose text grew after they were first seen",
        "Per document, the blocks of its newest revision that were not in its first one "
        "(added later, or changed since): the counts of its provenance rows, kept in the "
        "documents table.",
        """select d.id as document, d.source, d.title, d.revisions, d.blocks,
  d.blocks_not_in_first as not_in_first, d.blocks_changed_since as changed_since
from documents d
where d.blocks_not_in_first > 0
order by not_in_first desc, document""",
    ),
)
"""The example queries of docs/commands.md, in its order."""


def metadata(database: str) -> dict[str, JSON]:
    """The ``metadata.json`` for the database file named ``database`` (its stem)."""
    tables: dict[str, JSON] = {
        table.name: {
            "description": table.description,
            "columns": {c.name: c.description for c in table.columns},
        }
        for table in TABLES
    }
    for name, description in STATE_TABLES.items():  # the update's own: out of sight
        tables[name] = {"description": description, "hidden": True}
    queries: dict[str, JSON] = {
        q.name: {"title": q.title, "description": q.description, "sql": q.sql} for q in QUERIES
    }
    return {
        "title": "quietedit archive",
        "description": "Every observed revision of every archived news article, the edits "
        "between them as quietedit classifies them, and what the publisher said.",
        "source": "quietedit",
        "source_url": "https://github.com/quietedit/quietedit",
        "databases": {database: {"tables": tables, "queries": queries}},
    }


def dump_metadata(database: str) -> bytes:
    """:func:`metadata` as deterministic JSON bytes."""
    text = json.dumps(metadata(database), ensure_ascii=False, indent=2, sort_keys=True)
    return (text + "\n").encode()
