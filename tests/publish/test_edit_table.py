"""The ``edits`` table's queries against the pure listing functions they stand in for.

An hourly build makes the listings, feeds and statistics from bounded queries on the
build cache (``edittable``, ``listingpages``); a full build too. Here each query is
checked against what :mod:`~quietedit.publish.listing` and a filter in Python make of the
same edits, on random archives of edits, and the archive pages an hourly build keeps
unread are checked to be those a build from nothing makes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import sqlite3
from collections.abc import Callable, Iterator, Sequence

import pytest

from quietedit.publish.buildcache import create_tables
from quietedit.publish.edittable import (
    EVERY,
    EditTable,
    Scope,
    delete_edits,
    insert_edits,
    replace_edits,
)
from quietedit.publish.feedsets import ENTRIES, SIGNIFICANT, FeedFilter
from quietedit.publish.listing import EditRef, ListingPage, compute_stats, ordered, paginate
from quietedit.publish.listingpages import first_changed, listing_pages

SOURCES = ("alpha", "beta", "gamma")
KINDS = ("figure", "headline", "quote", "correction")
MONTHS = ("2026-07", "2026-08", "2026-09")
SIZE = 4  # edits per page: small, so that a few dozen edits make many pages


def random_ref(rng: random.Random, doc: str, number: int, month: str) -> EditRef:
    day = f"{month}-{rng.randint(1, 28):02d}"
    observed = f"{day}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z"
    return EditRef(
        day=day,
        rank=rng.randint(0, 3),
        observed_at=observed,
        document=doc,
        number=number,
        source=rng.choice(SOURCES),
        kinds=tuple(sorted(rng.sample(KINDS, rng.randint(0, 2)))),
        delay=rng.randint(-1, 5),
        silent=rng.choice((None, True, False)),
        digest=f"{rng.getrandbits(48):012x}",
        headline=rng.random() < 0.3,
        watched=tuple(rng.sample(("budget", "police"), rng.randint(0, 1))),
        event=rng.choice(("", "", "", "", "gone")),
    )


def random_documents(rng: random.Random, count: int) -> dict[str, tuple[str, list[EditRef]]]:
    """id → (month, its edits)."""
    out = {}
    for n in range(count):
        doc, month = f"site-{n:016x}", rng.choice(MONTHS)
        out[doc] = (month, [random_ref(rng, doc, k, month) for k in range(2, rng.randint(3, 5))])
    return out


@contextlib.contextmanager
def database(documents: dict[str, tuple[str, list[EditRef]]]) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        create_tables(db)
        insert_edits(db, [(doc, month, refs) for doc, (month, refs) in documents.items()])
        yield db


def expected(
    documents: dict[str, tuple[str, list[EditRef]]],
    scope: Scope,
    folded: frozenset[str],
    base: str,
) -> list[ListingPage]:
    """What the listing was made of before the table: every edit, in Python."""
    month = {doc: m for doc, (m, _) in documents.items()}
    edits = ordered([r for _, refs in documents.values() for r in refs if scope.holds(r)])
    pages = paginate(
        edits,
        base=base,
        heading="Heading",
        size=SIZE,
        hidden=(lambda r: month[r.document] in folded) if folded else None,
        folded="archive" if folded else None,
    )
    return [p if p.number is None else dataclasses.replace(p, compact=True) for p in pages]


def made(
    db: sqlite3.Connection, scope: Scope, folded: frozenset[str], base: str, first: int = 0
) -> list[ListingPage]:
    table = EditTable(db, folded)
    return listing_pages(
        table,
        scope,
        base=base,
        heading="Heading",
        size=SIZE,
        folded_root="archive",
        first=first,
        reuse=lambda _: True,
    )


SCOPES = (EVERY, Scope(source="beta"), Scope(kind="quote"))


@pytest.mark.parametrize("seed", range(12))
def test_the_listing_pages_are_those_paginate_makes_of_every_edit(seed: int) -> None:
    rng = random.Random(seed)
    documents = random_documents(rng, rng.choice((1, 3, 30)))
    with database(documents) as db:
        for scope in SCOPES:
            for folded in (frozenset(), frozenset({"2026-07"}), frozenset(MONTHS)):
                assert made(db, scope, folded, "x") == expected(documents, scope, folded, "x")


@pytest.mark.parametrize("seed", range(12))
def test_pages_before_the_first_changed_one_are_those_a_build_from_nothing_makes(
    seed: int,
) -> None:
    """An hour's change (new edits, a document gone, an edit shown differently, an old
    document's new edit): every archive page before :func:`first_changed`'s is what a
    build from nothing now makes, and the pages made from it on are the rest."""
    rng = random.Random(seed)
    documents = random_documents(rng, 30)
    with database(documents) as db:
        before = {scope: made(db, scope, frozenset(), "x") for scope in SCOPES}
        changes: set[EditRef] = set()
        for n in range(30, 30 + rng.randint(0, 5)):  # new documents
            doc, month = f"site-{n:016x}", "2026-09"
            refs = [random_ref(rng, doc, 2, month)]
            documents[doc] = (month, refs)
            changes |= replace_edits(db, doc, month, refs)
        victim = rng.choice(sorted(documents))
        if rng.random() < 0.5:  # gone
            del documents[victim]
            changes |= delete_edits(db, [victim])
        else:  # shown differently, or with an edit more
            month, refs = documents[victim]
            refs = [r._replace(digest="changed") for r in refs]
            refs += [random_ref(rng, victim, 9, month)] if rng.random() < 0.5 else []
            documents[victim] = (month, refs)
            changes |= replace_edits(db, victim, month, refs)
        table = EditTable(db, frozenset())
        for scope in SCOPES:
            now = expected(documents, scope, frozenset(), "x")
            assert made(db, scope, frozenset(), "x") == now
            first = first_changed(table, scope, changes, size=SIZE)
            kept_before = [p for p in before[scope] if p.number is not None and p.number <= first]
            kept_now = [p for p in now if p.number is not None and p.number <= first]
            assert kept_before == kept_now
            partial = made(db, scope, frozenset(), "x", first=first)
            assert partial == [p for p in now if p.number is None or p.number > first]


def test_an_unchanged_edit_written_again_is_no_change() -> None:
    rng = random.Random(7)
    documents = random_documents(rng, 3)
    with database(documents) as db:
        doc, (month, refs) = next(iter(documents.items()))
        assert replace_edits(db, doc, month, list(reversed(refs))) == set()
        assert replace_edits(db, doc, month, refs[:1]) == set(refs[1:])
        assert first_changed(EditTable(db, frozenset()), EVERY, None, size=SIZE) == 0


@pytest.mark.parametrize("seed", range(6))
def test_feeds_and_statistics_are_those_of_every_edit_in_python(seed: int) -> None:
    rng = random.Random(seed)
    documents = random_documents(rng, 40)
    folded = frozenset({"2026-07"})
    month = {doc: m for doc, (m, _) in documents.items()}
    every = [r for _, refs in documents.values() for r in refs]
    with database(documents) as db:
        table = EditTable(db, folded)
        stats = compute_stats([r for r in every if not r.event], [])
        assert table.stats() == stats
        assert table.kinds() == sorted(
            (k, sum(k in r.kinds for r in every)) for k in {k for r in every for k in r.kinds}
        )
        for scope in (EVERY, Scope(source="alpha")):
            shown = [r for r in every if scope.holds(r) and month[r.document] not in folded]
            newest = sorted(shown, key=lambda r: (r.observed_at, r.document, r.number))[::-1]
            assert table.newest(scope, 50) == newest[:50]
            tests: dict[FeedFilter, Callable[[EditRef], bool]] = {
                FeedFilter("silent"): lambda r: r.silent is True,
                FeedFilter("headlines"): lambda r: r.headline,
                FeedFilter("significant"): lambda r: r.rank >= SIGNIFICANT,
                FeedFilter("kind", "quote"): lambda r: "quote" in r.kinds,
                FeedFilter("term", "budget"): lambda r: "budget" in r.watched,
            }
            for feed, keeps in tests.items():
                wanted = [r for r in newest if not r.event and keeps(r)][:ENTRIES]
                assert table.newest(scope, ENTRIES, feed=feed) == wanted, feed


@pytest.mark.parametrize("seed", range(6))
def test_places_and_slices_by_time_are_those_of_every_edit_sorted(seed: int) -> None:
    """An edit's place (counted from the newest) and a slice from any start (found from
    the newest) are those of the scope's edits sorted by time, folded months included."""
    rng = random.Random(seed)
    documents = random_documents(rng, rng.choice((1, 5, 30)))
    month = {doc: m for doc, (m, _) in documents.items()}
    with database(documents) as db:
        for scope in SCOPES:
            table = EditTable(db, frozenset({"2026-08"}))
            edits = sorted(
                (r for _, refs in documents.values() for r in refs if scope.holds(r)),
                key=lambda r: (r.observed_at, r.document, r.number),
            )
            for n, ref in enumerate(edits):
                assert table.position(scope, (ref.observed_at, ref.document, ref.number)) == n
            assert table.position(scope, ("9999", "", 0)) == len(edits)
            for start in range(len(edits) + 2):
                found = table.by_time(scope, start)
                assert found == [(r, month[r.document]) for r in edits[start:]]


@pytest.mark.parametrize("seed", range(6))
def test_the_counts_kept_by_triggers_are_those_of_the_rows_after_any_change(seed: int) -> None:
    """Edits added, removed and shown differently, rows changed in place: every count of a
    listing, the kinds' and sources' counts and the statistics read from the sums the
    triggers keep are those of the edits left, counted in Python."""
    rng = random.Random(seed)
    documents = random_documents(rng, 20)
    with database(documents) as db:
        for _ in range(8):
            victim = rng.choice(sorted(documents))
            roll = rng.random()
            if roll < 0.3:
                del documents[victim]
                delete_edits(db, [victim])
            elif roll < 0.8:
                month = documents[victim][0]
                refs = [random_ref(rng, victim, k, month) for k in range(2, rng.randint(2, 5))]
                documents[victim] = (month, refs)
                replace_edits(db, victim, month, refs)
            else:  # a row changed in place (not how a build writes, but kept right too)
                month, refs = documents[victim]
                if refs:
                    changed = refs[0]._replace(source="gamma", delay=3, silent=None, event="")
                    documents[victim] = (month, [changed, *refs[1:]])
                    db.execute(
                        "UPDATE edits SET source = 'gamma', delay = 3, silent = NULL, event = ''"
                        " WHERE document = ? AND number = ?",
                        (victim, changed.number),
                    )
                    db.execute(
                        "UPDATE edit_kinds SET event = '' WHERE document = ? AND number = ?",
                        (victim, changed.number),
                    )
            every = [r for _, refs in documents.values() for r in refs]
            table = EditTable(db, frozenset())
            assert table.stats() == compute_stats([r for r in every if not r.event], [])
            kinds = {k for r in every for k in r.kinds}
            assert table.kinds() == sorted((k, sum(k in r.kinds for r in every)) for k in kinds)
            for scope in (*SCOPES, Scope(source="alpha"), Scope(kind="figure")):
                held = [r for r in every if scope.holds(r)]
                assert table.count(scope) == len(held)
                assert table.count(scope, edits_only=True) == sum(not r.event for r in held)
            for edits_only in (False, True):
                wanted: dict[str, int] = {}
                for r in every:
                    if not (edits_only and r.event):
                        wanted[r.source] = wanted.get(r.source, 0) + 1
                assert table.source_counts(edits_only=edits_only) == dict(sorted(wanted.items()))


@pytest.mark.parametrize("seed", range(4))
def test_feeds_of_kinds_and_terms_follow_edits_replaced_and_removed(seed: int) -> None:
    """The rows a kind's or a watched term's feed is read from go with their edits: after
    documents' edits are written anew or removed, each such feed of the site and of each
    source is what a filter of the edits left makes."""
    rng = random.Random(seed)
    documents = random_documents(rng, 30)
    with database(documents) as db:
        for _ in range(12):
            victim = rng.choice(sorted(documents))
            if rng.random() < 0.3:
                del documents[victim]
                delete_edits(db, [victim])
            else:
                month = documents[victim][0]
                refs = [random_ref(rng, victim, k, month) for k in range(2, rng.randint(2, 6))]
                documents[victim] = (month, refs)
                replace_edits(db, victim, month, refs)
        every = [r for _, refs in documents.values() for r in refs if not r.event]
        newest = sorted(every, key=lambda r: (r.observed_at, r.document, r.number))[::-1]
        table = EditTable(db, frozenset())
        for scope in (EVERY, *(Scope(source=s) for s in SOURCES)):
            for kind in KINDS:
                wanted = [r for r in newest if scope.holds(r) and kind in r.kinds]
                feed = FeedFilter("kind", kind)
                assert table.newest(scope, ENTRIES, feed=feed) == wanted[:ENTRIES]
            for term in ("budget", "police"):
                wanted = [r for r in newest if scope.holds(r) and term in r.watched]
                feed = FeedFilter("term", term)
                assert table.newest(scope, ENTRIES, feed=feed) == wanted[:ENTRIES]


FEED_PLANS = {
    # (filter, of a source): what the plan of its newest entries searches
    ("silent", False): "USING INDEX edits_silent ",
    ("silent", True): "USING INDEX edits_silent_by_source ",
    ("headlines", False): "USING INDEX edits_headline ",
    ("headlines", True): "USING INDEX edits_headline_by_source ",
    ("significant", False): "USING INDEX edits_significant ",
    ("significant", True): "USING INDEX edits_significant_by_source ",
    ("kind", False): "SEARCH t USING PRIMARY KEY (kind=?)",
    ("kind", True): "USING COVERING INDEX edit_kinds_source (kind=? AND source=? AND event=?)",
    ("term", False): "SEARCH t USING PRIMARY KEY (term=?)",
    ("term", True): "USING COVERING INDEX edit_terms_source (term=? AND source=?)",
}


@pytest.mark.parametrize(("what", "of_source"), sorted(FEED_PLANS))
@pytest.mark.parametrize("folded", [frozenset(), frozenset({"2026-07"})])
def test_a_filtered_feed_reads_the_end_of_its_own_index(
    what: str, of_source: bool, folded: frozenset[str]
) -> None:
    """The newest entries of a filtered feed are read from an index of its own edits (of
    the site, or of its source), newest first, not found by walking back through every
    edit, or every edit of a kind, until enough are found: a feed of rare edits costs the
    same at day 365 as at day 7."""
    scope = Scope(source="beta") if of_source else EVERY
    value = {"kind": "quote", "term": "budget"}.get(what, "")
    with database(random_documents(random.Random(1), 10)) as db:
        plans: list[str] = []
        real = db.execute

        class Explaining:  # the table's connection, answering EXPLAIN QUERY PLAN instead
            def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
                plans.extend(str(row[3]) for row in real(f"EXPLAIN QUERY PLAN {sql}", params))
                return real(sql, params)

        table = EditTable(Explaining(), folded)  # type: ignore[arg-type]
        table.newest(scope, ENTRIES, feed=FeedFilter(what, value))
    assert any(FEED_PLANS[what, of_source] in f"{plan} " for plan in plans), plans
    assert not any("TEMP B-TREE" in plan for plan in plans), plans  # no sort: an index's order
