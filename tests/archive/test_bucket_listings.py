"""What one document of an older partition costs a clone made without trees: in a flat
partition the listing of every other document folder of the day (each an entry of the
sparse index), in a bucketed one the listings of the buckets and of the documents beside
it in its bucket. Real git against a local bare origin."""

from __future__ import annotations

import subprocess
from pathlib import Path

from quietedit.archive.gittrees import fetch_trees
from quietedit.archive.layout import Layout
from tests.archive.test_gittrees import git, treeless_clone

BUCKETS = 16
PER_BUCKET = 4
FLAT_DAY = "2026/10/01"
BUCKETED_DAY = "2026/10/02"


def ids() -> list[str]:
    """Documents spread over ``BUCKETS`` buckets, ``PER_BUCKET`` in each."""
    return [
        f"news-example-org-{bucket:02x}{n:014x}"
        for bucket in range(BUCKETS)
        for n in range(PER_BUCKET)
    ]


def seed(tmp_path: Path, env: dict[str, str]) -> Path:
    """An origin with the same documents in a flat partition and in a bucketed one."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare), env=env)
    git(bare, "config", "uploadpack.allowFilter", "true", env=env)
    work = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(work), env=env)
    layout = Layout(work / "data")
    (work / "data" / "state").mkdir(parents=True)
    (work / "data" / "state" / "partitions.json").write_text("{}\n", encoding="utf-8")
    for day in (FLAT_DAY, BUCKETED_DAY):
        layout.partition_dir(day).mkdir(parents=True)
        layout.checks_file(day).write_text('{"documents": {}}\n', encoding="utf-8")
        for doc in ids():
            place = layout.flat_document_dir if day == FLAT_DAY else layout.document_dir
            folder = place(doc, day) / "revisions"
            folder.mkdir(parents=True)
            (folder.parent / "document.json").write_text(f'{{"id": "{doc}"}}\n', "utf-8")
            (folder / "000001.json").write_text(f'{{"day": "{day}"}}\n', encoding="utf-8")
    git(work, "add", "-A", env=env)
    git(work, "commit", "-q", "-m", "two partitions", env=env)
    git(work, "push", "-q", str(bare), "main", env=env)
    return bare


def checked_out(clone: Path, folder: str, env: dict[str, str]) -> tuple[int, list[str]]:
    """Listings fetched to check out ``folder`` alone, and the sparse index's entries
    below its partition afterwards."""
    made = fetch_trees(clone, [folder])
    assert not made.failed
    subprocess.run(
        ["git", "sparse-checkout", "add", "--skip-checks", folder],
        cwd=clone,
        env=env,
        check=True,
        capture_output=True,
    )
    assert (clone / folder / "revisions" / "000001.json").is_file()
    partition = folder.split("/")[:5]
    listed = git(clone, "ls-files", "--sparse", env=env).splitlines()
    below = [line for line in listed if line.split("/")[:5] == partition]
    return made.trees, below


def test_one_document_of_a_bucketed_partition_costs_its_buckets_not_the_whole_day(
    tmp_path: Path, env: dict[str, str]
) -> None:
    origin = seed(tmp_path, env)
    doc = ids()[5]
    layout = Layout(Path("data"))
    flat_clone = treeless_clone(origin, tmp_path / "flat", env)
    flat, flat_index = checked_out(
        flat_clone, layout.flat_document_dir(doc, FLAT_DAY).as_posix(), env
    )
    bucketed_clone = treeless_clone(origin, tmp_path / "bucketed", env)
    bucketed, bucketed_index = checked_out(
        bucketed_clone, layout.document_dir(doc, BUCKETED_DAY).as_posix(), env
    )
    documents = BUCKETS * PER_BUCKET
    # flat: every other document folder of the day is listed, one sparse entry each
    assert flat >= documents - 1
    assert sum(line.endswith("/") for line in flat_index) == documents - 1
    # bucketed: the other buckets and the documents beside it in its own
    beside = (BUCKETS - 1) + (PER_BUCKET - 1)
    assert sum(line.endswith("/") for line in bucketed_index) == beside
    # the same folders on the way as the flat one's, and the bucket's own listing more
    assert bucketed == (flat - (documents - 1)) + beside + 1
    assert f"data/documents/{BUCKETED_DAY}/{doc[-16:-14]}/{doc}/document.json" in bucketed_index
