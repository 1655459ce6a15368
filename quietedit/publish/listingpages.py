"""A listing's pages from the build cache's ``edits`` table, the archive pages before its
earliest change kept as they are.

The pages are :func:`listing.paginate`'s, made from bounded queries
(:class:`~quietedit.publish.edittable.EditTable`) instead of from every edit of the
listing: the front page is the newest edits in listing order, and the archive pages,
append-stable (page *n* holds the edits (*n* - 1)·size + 1 to *n*·size by time, oldest
first), are read from the page of the earliest edit that changed on. The pages before it
hold what they held, and stay as the previous build wrote them (``reuse``); a page whose
file is missing is read and made again, and every one after it.

With months folded, the pages left empty by the fold are not made and the links skip
them, so which pages exist before the first one read is not known without reading them:
every archive page is then read (an hourly build of a site past its size limit reads its
listings whole, as the fold moves once a month).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from quietedit.publish.edittable import EditTable, Scope, time_key
from quietedit.publish.listing import EditRef, ListingPage


def _join(base: str, tail: str) -> str:
    return f"{base}/{tail}" if base else tail


def archive_path(base: str, number: int) -> str:
    """The folder of the listing's archive page ``number`` (counting from 1)."""
    return _join(base, f"edits/{number}")


def first_changed(
    table: EditTable,
    scope: Scope,
    changes: Iterable[EditRef] | None,
    *,
    size: int,
    every: bool = False,
) -> int:
    """The index (from 0) of the first archive page of ``scope`` that may differ from the
    previous build's: that of its earliest changed edit, or the one before the last page
    (whose link to the newer page moves when a page is added); 0 when ``changes`` is
    ``None`` (anything may have changed). ``every``: the earliest changed edit of any
    scope counts (a page that points into the listing of every edit moves with it)."""
    if changes is None:
        return 0
    total = table.count(scope)
    last = max((total - 1) // size, 0)
    keys = [time_key(ref) for ref in changes if every or scope.holds(ref)]
    earliest = last
    if keys:
        earliest = table.position(scope, min(keys)) // size
    return max(min(earliest, last - 1), 0)


def listing_pages(
    table: EditTable,
    scope: Scope,
    *,
    base: str,
    heading: str,
    size: int,
    folded_root: str,
    first: int,
    reuse: Callable[[str], bool],
) -> list[ListingPage]:
    """The front page at ``base`` and the archive pages ``base/edits/N`` from the
    ``first``-th (counting from 0) on, as :func:`listing.paginate` makes them of the
    edits of ``scope`` (archive pages compact). The archive pages before the ``first``-th
    are kept when ``reuse`` (given a page's folder) says their file is there, as the
    previous build made it; from the first that is not, the pages are made again."""
    total = table.count(scope)
    count = table.count(scope, edits_only=True)
    shown = table.count(scope, visible=True) if table.folded else total
    gone = shown < total
    front = table.front(scope, size)
    if total <= size:
        return [
            ListingPage(base, heading, tuple(front), count, older=folded_root if gone else None)
        ]
    front_older = folded_root if gone else None
    if shown > size:  # the page of the newest edit the front page leaves out
        on_front = {(ref.document, ref.number) for ref in front}
        newest = next(
            ref
            for ref in table.newest(scope, size + 1)
            if (ref.document, ref.number) not in on_front
        )
        place = table.position(scope, time_key(newest))
        front_older = archive_path(base, place // size + 1)
    pages = [ListingPage(base, heading, tuple(front), count, older=front_older)]
    if table.folded:
        first = 0
    for index in range(first):
        if not reuse(archive_path(base, index + 1)):
            first = index
            break
    rows = table.by_time(scope, first * size)
    kept: list[tuple[int, list[EditRef]]] = []
    for start in range(0, len(rows), size):
        visible = [ref for ref, month in rows[start : start + size] if month not in table.folded]
        if visible:
            kept.append((first + start // size + 1, sorted(visible, reverse=True)))
    for n, (number, items) in enumerate(kept):
        if n:
            older: str | None = archive_path(base, kept[n - 1][0])
        elif first:  # the pages before were kept: every one has edits (nothing folded)
            older = archive_path(base, first)
        else:
            older = folded_root if number > 1 and gone else None
        newer = archive_path(base, kept[n + 1][0]) if n + 1 < len(kept) else base
        pages.append(
            ListingPage(
                archive_path(base, number),
                f"{heading} — page {number}",
                tuple(items),
                None,
                number=number,
                older=older,
                newer=newer,
                compact=True,
            )
        )
    return pages
