"""The trees a sparse checkout needs, fetched by id in a clone made without any
(``--filter=tree:0``), with real git against a local bare origin: git then fetches no
tree on its own, the archive's other folders stay out, and the clone commits and pushes."""

from __future__ import annotations

import json
import logging
import os
import subprocess
from pathlib import Path

import pytest

from quietedit.archive.gittrees import fetch_all_trees, fetch_trees, promisor_remote
from quietedit.archive.since import verify_since
from quietedit.archive.sparse import check_out_everything, fetch_folder
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import JSON
from tests.conftest import observation

PARTITIONS = ("2026/10/02", "2026/11/27", "2026/11/28")
STUB_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def doc(partition: str, number: int) -> str:
    return f"data/documents/{partition}/news-example-org-{number:016x}"


def git(repo: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture
def origin(tmp_path: Path, env: dict[str, str]) -> Path:
    """A bare origin serving partial clones, holding three partitions of four documents,
    each with a revisions folder."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare), env=env)
    git(bare, "config", "uploadpack.allowFilter", "true", env=env)
    seed = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(seed), env=env)
    files = {"pyproject.toml": "[project]\n", "data/state/partitions.json": "{}\n"}
    for partition in PARTITIONS:
        files[f"data/documents/{partition}/checks.json"] = '{"documents": {}}\n'
        for number in range(4):
            folder = doc(partition, number)
            files[f"{folder}/document.json"] = f'{{"n": {number}}}\n'
            files[f"{folder}/revisions/000001-{number:04x}.json"] = f'{{"text": "{partition}"}}\n'
    for path, text in files.items():
        (seed / path).parent.mkdir(parents=True, exist_ok=True)
        (seed / path).write_text(text, encoding="utf-8")
    git(seed, "add", "-A", env=env)
    git(seed, "commit", "-q", "-m", "The archive so far", env=env)
    git(seed, "push", "-q", str(bare), "main", env=env)
    return bare


def treeless_clone(origin: Path, target: Path, env: dict[str, str]) -> Path:
    """The hourly job's clone, as update.yml makes it: the newest commit without trees,
    the trees of ``data/state`` fetched by id, a sparse index read from a placeholder."""
    target.mkdir()
    git(target, "init", "-q", "-b", "main", env=env)
    git(target, "remote", "add", "origin", origin.as_uri(), env=env)
    git(target, "fetch", "-q", "--filter=tree:0", "--depth=1", "origin", "main", env=env)
    git(target, "update-ref", "refs/remotes/origin/main", "FETCH_HEAD", env=env)
    made = fetch_trees(target, ["data/state"], revision="refs/remotes/origin/main")
    assert not made.failed and made.requests >= 1
    git(target, "sparse-checkout", "set", "--cone", "--sparse-index", "data/state", env=env)
    stub = subprocess.run(
        ["git", "mktree", "--missing"],
        cwd=target,
        env=env,
        input=f"100644 blob {STUB_BLOB}\t.clone\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    git(target, "read-tree", stub, env=env)
    git(target, "read-tree", "-m", "-u", stub, "refs/remotes/origin/main", env=env)
    git(target, "update-ref", "refs/heads/main", "refs/remotes/origin/main", env=env)
    return target


def missing(repo: Path, env: dict[str, str]) -> set[str]:
    listing = git(repo, "rev-list", "--objects", "--missing=print", "HEAD", env=env)
    return {line[1:] for line in listing.splitlines() if line.startswith("?")}


def tree(origin: Path, path: str, env: dict[str, str]) -> str:
    return git(origin, "rev-parse", f"main:{path}", env=env)


def loose(repo: Path, env: dict[str, str]) -> int:
    """Objects received unpacked (a small push is stored that way)."""
    return int(git(repo, "count-objects", "-v", env=env).split("\n")[0].split()[1])


def lazy_tree_fetches(trace: Path) -> int:
    """git's own fetches of missing objects in a trace2 event log, less the one that
    brings the checked-out files' contents in a batch."""
    if not trace.exists():
        return 0
    lines = trace.read_text(encoding="utf-8").splitlines()
    lazy = [line for line in lines if '"child_start"' in line and '"--stdin"' in line]
    return max(0, len([line for line in lazy if "blob:none" in line]) - 1)


def test_a_document_folder_checks_out_with_its_own_trees_only(
    tmp_path: Path, origin: Path, env: dict[str, str]
) -> None:
    clone = treeless_clone(origin, tmp_path / "clone", env)
    assert promisor_remote(clone) == "origin"
    wanted = doc("2026/11/28", 1)

    made = fetch_trees(clone, [wanted, "data/documents/2026/11/27"])
    trace = tmp_path / "trace.json"
    subprocess.run(
        ["git", "sparse-checkout", "add", "--skip-checks", wanted, "data/documents/2026/11/27"],
        cwd=clone,
        env={**env, "GIT_TRACE2_EVENT": str(trace)},
        check=True,
        capture_output=True,
    )

    assert not made.failed
    assert lazy_tree_fetches(trace) == 0  # git asked for no tree itself
    assert (clone / wanted / "revisions/000001-0001.json").exists()
    assert (clone / "data/documents/2026/11/28/checks.json").exists()
    assert (clone / doc("2026/11/27", 3) / "document.json").exists()
    absent = missing(clone, env)
    # beside it, a neighbour's own listing came (a sparse index entry), nothing below it
    assert tree(origin, f"{doc('2026/11/28', 2)}/revisions", env) in absent
    assert tree(origin, doc("2026/11/28", 2), env) not in absent
    # the retired month: its own listing, none of its partitions'
    assert tree(origin, "data/documents/2026/10/02", env) in absent
    listed = git(clone, "ls-files", "--sparse", env=env).splitlines()
    assert "data/documents/2026/10/" in listed


def test_the_clone_commits_and_pushes_only_what_is_new(
    tmp_path: Path, origin: Path, env: dict[str, str]
) -> None:
    clone = treeless_clone(origin, tmp_path / "clone", env)
    wanted = doc("2026/11/28", 1)
    fetch_trees(clone, [wanted])
    git(clone, "sparse-checkout", "add", "--skip-checks", wanted, env=env)
    new = clone / wanted / "revisions/000002-abcd.json"
    new.write_text('{"text": "amended"}\n', encoding="utf-8")
    (clone / "data/state/partitions.json").write_text('{"active": []}\n', encoding="utf-8")
    before = loose(origin, env)

    git(clone, "add", "--sparse", "data", env=env)
    git(clone, "commit", "-q", "-m", "Ingest", env=env)
    git(clone, "push", "-q", "origin", "HEAD:main", env=env)

    # the push sent the new commit, the trees on the way to the new files and the two
    # files: nothing of the folders it never fetched
    sent = loose(origin, env) - before
    assert sent == 1 + 9 + 2  # the commit; the trees of the root, data, state, documents,
    # 2026, 11, 28, the document and its revisions; the two files
    full = tmp_path / "full"
    git(tmp_path, "clone", "-q", origin.as_uri(), str(full), env=env)
    git(full, "fsck", "--strict", "--no-progress", env=env)
    pushed = (full / wanted / "revisions/000002-abcd.json").read_text("utf-8")
    assert pushed == '{"text": "amended"}\n'
    assert (full / doc("2026/10/02", 3) / "document.json").exists()  # untouched, still there
    assert git(full, "log", "--format=%s", "-1", env=env) == "Ingest"


def test_an_old_document_is_fetched_back_alone_and_everything_on_a_full_build(
    tmp_path: Path, origin: Path, env: dict[str, str]
) -> None:
    clone = treeless_clone(origin, tmp_path / "clone", env)
    old = doc("2026/10/02", 2)

    assert fetch_folder(clone / "data", clone / old) is True
    assert (clone / old / "revisions/000001-0002.json").exists()
    assert tree(origin, f"{doc('2026/10/02', 3)}/revisions", env) in missing(clone, env)
    assert tree(origin, "data/documents/2026/11/28", env) in missing(clone, env)

    trace = tmp_path / "trace.json"
    os.environ["GIT_TRACE2_EVENT"] = str(trace)
    try:
        assert check_out_everything(clone / "data") is True
    finally:
        del os.environ["GIT_TRACE2_EVENT"]
    assert lazy_tree_fetches(trace) == 0
    assert not missing(clone, env)
    assert (clone / doc("2026/11/27", 0) / "revisions/000001-0000.json").exists()


def test_a_server_that_refuses_leaves_git_to_fetch_the_trees_itself(
    tmp_path: Path, origin: Path, env: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    clone = treeless_clone(origin, tmp_path / "clone", env)
    moved = tmp_path / "moved.git"
    origin.rename(moved)  # every request fails now

    with caplog.at_level(logging.WARNING, logger="quietedit.archive.gittrees"):
        made = fetch_trees(clone, [doc("2026/11/28", 0)])

    assert made.failed
    assert "git will fetch them itself" in caplog.text
    moved.rename(origin)
    # and git does: the checkout still works, only with more requests
    git(clone, "sparse-checkout", "add", "--skip-checks", doc("2026/11/28", 0), env=env)
    assert (clone / doc("2026/11/28", 0) / "document.json").exists()
    assert fetch_all_trees(tmp_path) == fetch_trees(tmp_path, ["data"])  # no clone: nothing


def test_sparse_paths_all_fetches_every_listing_before_the_checkout_widens(
    tmp_path: Path, origin: Path, env: dict[str, str]
) -> None:
    from click.testing import CliRunner

    from quietedit.cli import cli

    clone = treeless_clone(origin, tmp_path / "clone", env)
    trees = set(git(origin, "rev-list", "--objects", "--filter=blob:none", "main", env=env).split())
    assert missing(clone, env) & trees  # the documents' listings are not here yet

    done = CliRunner().invoke(
        cli, ["sparse-paths", "--data", str(clone / "data"), "--all", "--fetch-trees"]
    )

    assert done.exit_code == 0, done.output
    assert done.stdout == "data\n"
    assert not missing(clone, env) & trees  # every listing came, no file content yet
    assert missing(clone, env)


def test_verify_since_looks_up_the_documents_left_out_without_a_fetch_per_folder(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a partition of twelve documents in their buckets; the hourly clone checks out one,
    # and its check rewrites the partition's checks file, which names all twelve
    bare, seed = tmp_path / "origin.git", tmp_path / "seed"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare), env=env)
    git(bare, "config", "uploadpack.allowFilter", "true", env=env)
    git(tmp_path, "init", "-q", "-b", "main", str(seed), env=env)
    archive = Archive(seed / "data")
    urls = [f"https://news.example.org/world/2026/10/02/story-{n}" for n in range(12)]
    for url in urls:
        record: dict[str, JSON] = {
            "url": url,
            "discovered_at": "2026-10-02T06:00:00Z",
            "schedule": {"last_checked_at": "2026-10-20T06:00:00Z", "failures": 0, "changes": 1},
        }
        archive.write_document(document_id(url), record)
        archive.append_revision(document_id(url), observation(url=url))
    git(seed, "add", "-A", env=env)
    git(seed, "commit", "-q", "-m", "The archive so far", env=env)
    git(seed, "push", "-q", str(bare), "main", env=env)
    kept = document_id(urls[0])
    folder = archive.document_dir(kept).relative_to(seed).as_posix()
    assert len({document_id(url)[-16:-14] for url in urls}) > 6  # many buckets
    clone = treeless_clone(bare, tmp_path / "clone", env)
    assert not fetch_trees(clone, [folder, "data/index"]).failed
    git(clone, "sparse-checkout", "add", "--skip-checks", folder, "data/index", env=env)
    before = git(clone, "rev-parse", "HEAD", env=env)
    mine = Archive(clone / "data")
    later: JSON = {"last_checked_at": "2026-12-02T06:00:00Z", "failures": 0, "changes": 1}
    mine.write_document(kept, {**(mine.read_document(kept) or {}), "schedule": later})
    checks = clone / "data" / "documents" / "2026" / "10" / "02" / "checks.json"
    assert set(json.loads(checks.read_text())["documents"]) == {document_id(u) for u in urls}

    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    report = verify_since(clone / "data", before)

    assert report.problems == ()
    # the eleven documents left out were found in the commit's trees, fetched by id in a
    # request or two, not by git on its own, one folder at a time
    started = [line for line in trace.read_text().splitlines() if '"child_start"' in line]
    assert [line for line in started if '"fetch"' in line and '"--stdin"' in line] == []


def test_the_walk_never_asks_git_about_a_tree_the_clone_lacks(
    tmp_path: Path, origin: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # git looks for an object it lacks by scanning its pack folder again, once per object:
    # the walk must tell the trees it lacks apart without handing them to git, except to
    # fetch them
    from quietedit.archive import gittrees
    from quietedit.archive.gitcmd import git as run_git

    clone = treeless_clone(origin, tmp_path / "clone", env)
    lacking = missing(clone, env) | {tree(origin, "data/documents", env)}
    asked: list[str] = []

    def recording(cwd: Path, *args: str, stdin: str | None = None) -> object:
        if "fetch" not in args:
            asked.extend(" ".join([*args, stdin or ""]).split())
        return run_git(cwd, *args, stdin=stdin)

    monkeypatch.setattr(gittrees, "git", recording)
    wanted = [doc("2026/11/28", 1), doc("2026/10/02", 3)]

    made = fetch_trees(clone, wanted)

    assert not made.failed and made.trees > 0
    assert set(asked) & lacking == set()  # the old walk handed each of them to rev-list
    # and it fetched exactly what a checkout of them needs: git fetches no tree itself
    trace = tmp_path / "trace.json"
    subprocess.run(
        ["git", "sparse-checkout", "add", "--skip-checks", *wanted],
        cwd=clone,
        env={**env, "GIT_TRACE2_EVENT": str(trace)},
        check=True,
        capture_output=True,
    )
    assert lazy_tree_fetches(trace) == 0
    assert (clone / doc("2026/10/02", 3) / "revisions/000001-0003.json").exists()
    # a second walk over the same folders finds everything here and asks for nothing
    assert fetch_trees(clone, wanted).requests == 0
