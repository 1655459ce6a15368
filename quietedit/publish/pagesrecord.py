"""What the previous build left complete, so that an hourly build checks only its own work.

Two checks of an hourly build would otherwise grow with the archive's age: that every
document with pages still has its article folder (a listing of ``articles/`` and every
such document's row), and the search index's plan (every such document's source and
partition, ``search.plan_shards``). At its end a build writes ``pages.json`` in the build
cache: the cache's generation, the signature of the ``articles/`` folder as the build
left it (:func:`signature`) and the partition before which the search index's runs of
older articles were cut (``search.Runs``).

The signature is the folder's modification time to the nanosecond and its link count.
Adding, removing or renaming an article folder sets the time to the present (to the
kernel clock's tick of a few milliseconds: after the build's own last change, as the
record is written later still), and below about 65,000 folders on ext4 it changes the
count of links, one per sub-folder. Both
survive the way the hourly workflow carries the site from one run to the next:
``actions/cache`` saves it with GNU tar in the POSIX (pax) format, whose headers keep
modification times to the nanosecond, and extracts it into a fresh folder on the next
runner, which sets each folder's time back once its contents are extracted. The folder's
inode, which a restore always changes, is not part of it.

The next build trusts the record only for the cache of that generation. When the
folder's signature is the one recorded, no article folder was added or removed since
that build, which left every document with pages with its folder: the folder is not
listed and the rows of the documents left unread are not looked at. Otherwise (a folder
added, deleted or renamed, the folder restored from another run than the cache, a
restore stopped inside it, no record) the build lists the folder and checks every
document, as without this record, and remakes what is missing. A signature made from a
listing of the folder would cost what the record saves: ``os.listdir`` takes about 0.03 s
of CPU at 36,500 article folders and 0.3 s at 365,000; a ``stat`` a few microseconds.

What the signature cannot tell: a tool that sets the folder's time back after leaving it
incomplete. GNU tar does that when an extraction fails part way but goes on (a truncated
archive, a full disk): the count of links then differs only below ext4's limit of about
65,000. ``actions/cache`` reports such a restore as a miss, and ``update.yml`` then
removes what it left before building. A page deleted from inside an article folder that
stays is not seen by either check (the page check was always by folder): ``quietedit
build --full`` remakes it.

The record is removed before the cache is written and written last, so a build stopped
in between leaves none, and the next build checks everything.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

RECORD_FILE: Final = "pages.json"
"""In the build cache: see the module docstring."""


@dataclass(frozen=True, slots=True)
class PagesRecord:
    """What a build left: the cache ``generation`` it wrote, the ``articles`` folder's
    signature (:func:`signature`) and the search runs' bound (``""``: none)."""

    generation: str
    articles: str
    search_before: str = ""


def signature(out: Path) -> str:
    """The signature of the site's ``articles/`` folder (``""`` when there is none)."""
    try:
        found = os.stat(out / "articles")
    except OSError:
        return ""
    return f"{found.st_mtime_ns}:{found.st_nlink}"


def read(cache_root: Path, generation: str) -> PagesRecord | None:
    """The record, when it is there, readable and of the cache of ``generation``."""
    try:
        found = json.loads((cache_root / RECORD_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict):
        return None
    fields = (found.get("generation"), found.get("articles"), found.get("search_before"))
    if not all(isinstance(f, str) for f in fields) or not generation:
        return None
    record = PagesRecord(*(str(f) for f in fields))
    return record if record.generation == generation else None


def complete(record: PagesRecord | None, out: Path) -> bool:
    """Whether every document with pages of the cache ``record`` stands for still has its
    article folder in ``out``: none was added or removed since that build."""
    return record is not None and bool(record.articles) and record.articles == signature(out)


def forget(cache_root: Path) -> None:
    """Remove the record (before the cache is written)."""
    (cache_root / RECORD_FILE).unlink(missing_ok=True)


def write(cache_root: Path, out: Path, *, generation: str, search_before: str) -> None:
    """Record the site as this build leaves it (last: every article folder is made or
    removed by now). Written under a temporary name, then renamed."""
    record = {
        "articles": signature(out),
        "generation": generation,
        "search_before": search_before,
    }
    cache_root.mkdir(parents=True, exist_ok=True)
    path = cache_root / RECORD_FILE
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
    os.replace(temporary, path)
