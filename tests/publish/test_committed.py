"""Building from git clones: stamps that survive a clone, and documents a commit changed
while the sparse checkout leaves them out (``publish.committed``, ``archive.treeids``)."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from quietedit.archive import treeids
from quietedit.archive.layout import bucket_of
from quietedit.archive.store import Archive
from quietedit.model import Article, Block, Publisher
from quietedit.publish.buildcache import STATE_FILE
from quietedit.publish.committed import TREES_FILE
from quietedit.publish.paths import CACHE_DIR
from quietedit.revisions import Observation
from tests.conftest import git
from tests.publish.test_folding import NOVEMBER, data, september  # noqa: F401 - the fixture
from tests.publish.test_incremental import build


def origin_of(root: Path) -> Path:
    """Commit the archive at ``root`` (``<repo>/data``) in a repository made there."""
    repo = root.parent
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "data")
    git(repo, "commit", "-qm", "archive")
    return repo


def clone(origin: Path, target: Path) -> Path:
    """A fresh clone of ``origin`` (every file with a new time); its archive folder."""
    git(origin.parent, "clone", "-q", origin.as_uri(), str(target))
    return target / "data"


def edit(archive: Archive, doc: str) -> None:
    """A new revision of ``doc``: a paragraph added, a day after its last one."""
    last = archive.latest_revision(doc)
    assert last is not None
    article = Article(
        last.article.title,
        (*last.article.blocks, Block("A correction was appended to this article.")),
        Publisher(),
    )
    archive.append_revision(
        doc,
        Observation(
            url=last.observation.url,
            observed_at=last.observation.observed_at + timedelta(days=1),
            article=article,
            extractor="tests/1",
        ),
    )


def neighbours(root: Path) -> tuple[str, str]:
    """Two documents of one partition of the archive at ``root``, in buckets of their own."""
    archive = Archive(root)
    by_partition: dict[str, list[str]] = {}
    for doc in september(root):
        by_partition.setdefault(archive.partition(doc) or "", []).append(doc)
    first, second = next(docs for docs in by_partition.values() if len(docs) > 1)[:2]
    assert bucket_of(first) != bucket_of(second)  # the fixture's ids
    return first, second


def test_a_fresh_clone_of_the_same_commit_reads_no_document_again(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every file of a fresh clone has a new time; the tree ids do not move, so no
    document's content is hashed again and nothing is written."""
    origin = origin_of(data)
    out = tmp_path / "site"
    assert build(clone(origin, tmp_path / "first"), out).failures == ()
    assert (out / CACHE_DIR / TREES_FILE).is_file()

    def read(self: Archive, document: str) -> str:
        raise AssertionError(f"{document} hashed again")

    monkeypatch.setattr(Archive, "content_key", read)
    report = build(clone(origin, tmp_path / "second"), out)

    assert report.failures == ()
    assert report.rendered == 0
    assert report.written == ()


def test_an_edit_not_committed_yet_is_built(data: Path, tmp_path: Path) -> None:  # noqa: F811
    """A document whose files differ from the commit (a revision written, staged or
    not) is stamped by its files' times, not by the commit's tree id."""
    origin = origin_of(data)
    checkout = clone(origin, tmp_path / "clone")
    out = tmp_path / "site"
    build(checkout, out)
    first, second = september(checkout)[:2]
    edit(Archive(checkout), first)
    edit(Archive(checkout), second)
    git(checkout.parent, "add", "data")  # staged, not committed
    edit(Archive(checkout), second)  # and one more, not even staged

    report = build(checkout, out)

    assert f"articles/{first}/index.html" in report.written
    page = (out / "articles" / second / "index.html").read_text(encoding="utf-8")
    assert page.count("A correction was appended") >= 2
    assert report.failures == ()


def test_a_commit_changing_a_document_left_out_of_the_sparse_checkout_rebuilds_it(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A document the hourly job's sparse checkout leaves out, changed by a commit made
    elsewhere (here a new revision; a derived record of ``reextract`` alike): its folder's
    tree id moved, so the build reads it again (fetching it) and renders its pages; the
    other documents left out stay unread."""
    origin = origin_of(data)
    checkout = clone(origin, tmp_path / "clone")
    out = tmp_path / "site"
    assert build(checkout, out).failures == ()
    changed, *others = september(data)
    edit(Archive(data), changed)
    git(origin, "add", "data")
    git(origin, "commit", "-qm", "an edit pushed from elsewhere")
    repo = checkout.parent
    git(repo, "sparse-checkout", "set", "--cone", "data/index", "data/documents/2026/11")
    git(repo, "pull", "-q", "--ff-only")
    assert not any((checkout / "documents" / "2026" / "09").rglob("document.json"))

    report = build(checkout, out)

    assert report.failures == ()
    assert f"articles/{changed}/index.html" in report.written
    page = (out / "articles" / changed / "index.html").read_text(encoding="utf-8")
    assert "A correction was appended" in page
    assert not any(
        path.startswith(tuple(f"articles/{d}/" for d in others)) for path in report.written
    )
    again = build(checkout, out)  # recorded: nothing more to do
    assert again.written == ()
    assert again.rendered == 0


def test_a_commit_changing_one_document_lists_only_its_bucket_of_the_partition(
    data: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a partition whose tree id moved, the buckets whose tree id is the one their
    documents' recorded stamps make are not listed: only the changed document's bucket
    is (the old code listed the documents of every bucket of the partition, 38,000
    documents in a build at day 90 of a year at 1,000 articles a day)."""
    origin = origin_of(data)
    checkout = clone(origin, tmp_path / "clone")
    out = tmp_path / "site"
    assert build(checkout, out).failures == ()
    archive = Archive(data)
    changed, _ = neighbours(data)
    edit(archive, changed)
    git(origin, "add", "data")
    git(origin, "commit", "-qm", "an edit pushed from elsewhere")
    repo = checkout.parent
    git(repo, "sparse-checkout", "set", "--cone", "data/index", "data/documents/2026/11")
    git(repo, "pull", "-q", "--ff-only")
    listed: list[str] = []
    ls_tree = treeids._ls_tree

    def counted(root: Path, paths: list[str]) -> list[tuple[str, str]]:
        listed.extend(paths)
        return ls_tree(root, paths)

    monkeypatch.setattr(treeids, "_ls_tree", counted)

    report = build(checkout, out)

    assert report.failures == ()
    assert f"articles/{changed}/index.html" in report.written
    partition = archive.partition(changed)
    buckets = [p for p in listed if p.count("/") == 5]  # documents/YYYY/MM/DD/<bb>/
    assert buckets == [f"documents/{partition}/{bucket_of(changed)}/"]


def git_buckets(repo: Path) -> dict[str, str]:
    """Bucket (``YYYY/MM/DD/<bb>``) → its tree id in the commit checked out."""
    found = {}
    for line in git(repo, "ls-tree", "-d", "-r", "HEAD", "data/documents").splitlines():
        meta, _, path = line.partition("\t")
        parts = path.split("/")[2:]  # below data/documents
        if len(parts) == 4:
            found["/".join(parts)] = meta.split()[2]
    return found


def cached_buckets(out: Path) -> dict[str, str]:
    with contextlib.closing(sqlite3.connect(out / CACHE_DIR / STATE_FILE)) as db:
        return dict(db.execute("SELECT bucket, tree FROM buckets"))


def test_the_cache_keeps_the_tree_id_each_buckets_documents_make(
    data: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The ``buckets`` table (``publish.buckets``) holds, for every bucket whose every
    document was stamped with its tree id, the tree id git gives that bucket: after a
    full build, after a build of an edit, of an edit not committed (its bucket has none
    until it is) and of a document deleted."""
    origin = origin_of(data)
    checkout = clone(origin, tmp_path / "clone")
    repo = checkout.parent
    out = tmp_path / "site"
    assert build(checkout, out).failures == ()
    everything = git_buckets(repo)
    assert cached_buckets(out) == everything
    first, second = neighbours(checkout)
    archive = Archive(checkout)
    partition = archive.partition(first)

    edit(archive, first)
    git(repo, "add", "data")
    git(repo, "commit", "-qm", "an edit")
    assert build(checkout, out).failures == ()
    assert cached_buckets(out) == git_buckets(repo) != everything

    edit(archive, second)  # not committed: stamped by its files' times
    assert build(checkout, out).failures == ()
    unsure = f"{partition}/{bucket_of(second)}"
    assert cached_buckets(out) == {b: t for b, t in git_buckets(repo).items() if b != unsure}
    git(repo, "add", "data")
    git(repo, "commit", "-qm", "another edit")
    assert build(checkout, out).failures == ()
    assert cached_buckets(out) == git_buckets(repo)

    git(repo, "rm", "-rq", f"data/documents/{partition}/{bucket_of(first)}/{first}")
    git(repo, "commit", "-qm", "a document taken out")
    report = build(checkout, out)
    assert f"articles/{first}/index.html" in report.removed
    assert cached_buckets(out) == git_buckets(repo)
