"""The posted-ledger travels with the archive's branch, for real: three shard clones push
to one bare origin and race; then update-sharded.yml's one post job (its own checkout
settings and push step) posts and pushes the ledger past a commit that landed meanwhile; a
rerun of that job posts nothing again; and a job whose ledger push was lost posts nothing
twice either (Mastodon's Idempotency-Key, Bluesky's record key)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from quietedit.post.ledger import POSTED
from quietedit.post.run import PostReport, post_edits
from tests.post.conftest import NOW, Clock, bluesky_account, mastodon_account, options
from tests.post.fakes import FakeBluesky, FakeMastodon
from tests.post.test_post_run import ORDER, ledger
from tests.test_workflow_clone import ROOT, checkout, env, git, run_step, step, steps, write

__all__ = ["env"]  # the fixture: a clean git environment

SHARDED = "update-sharded.yml"


def seed_origin(tmp_path: Path, data: Path, env: dict[str, str]) -> str:
    """A bare origin whose branch holds the fixture's archive and the push script."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare), env=env)
    git(bare, "config", "uploadpack.allowFilter", "true", env=env)
    seed = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(seed), env=env)
    shutil.copytree(data, seed / "data")
    script = seed / ".github" / "scripts" / "push-data.sh"
    script.parent.mkdir(parents=True)
    shutil.copy2(ROOT / ".github" / "scripts" / "push-data.sh", script)
    write(seed, "quietedit/__init__.py", "")
    write(seed, "templates/base.html", "<!doctype html>\n")
    git(seed, "add", "-A", env=env)
    git(seed, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-qm", "Archive",
        env=env)  # fmt: skip
    git(seed, "push", "-q", str(bare), "main", env=env)
    return bare.as_uri()


def post_job(origin: str, repo: Path, env: dict[str, str]) -> dict[str, Any]:
    """The post job's checkout, as actions/checkout makes it: the branch head, data/state."""
    job = steps(SHARDED, "post")
    settings: dict[str, Any] = next(
        s["with"] for s in job if s.get("uses", "").startswith("actions/checkout")
    )
    checkout(origin, repo, settings, env=env)
    return settings


def post(site: tuple[Path, Path], data: Path, *accounts: object) -> PostReport:
    return post_edits(
        options((data, site[1])),
        accounts,  # type: ignore[arg-type]
        now=NOW,
        clock=Clock(),
        sleep=lambda s: None,
    )


def test_one_post_job_after_racing_shards_keeps_the_ledger_on_the_branch(
    site: tuple[Path, Path],
    tmp_path: Path,
    env: dict[str, str],
    mastodon: FakeMastodon,
    bluesky: FakeBluesky,
) -> None:
    origin = seed_origin(tmp_path, site[0], env)
    shard_push = step(
        SHARDED,
        "ingest",
        "Commit and push data (shards write disjoint files, so a rebase never conflicts)",
    )
    ledger_push = step(SHARDED, "post", "Commit and push the posted-ledger")
    # three shards cloned from the same commit push one after the other: two lose, rebase
    shards = [tmp_path / f"shard-{n}" for n in (1, 2, 3)]
    for n, repo in enumerate(shards, 1):
        checkout(origin, repo, {"fetch-depth": 1}, env=env)
        write(repo, f"data/state/partitions-shard-{n}-of-3.json", f'{{"shard": {n}}}\n')
    for n, repo in enumerate(shards, 1):
        done = run_step(repo, shard_push, env=env, SHARD=f"{n}/3", RUN_ID="9", BRANCH="main")
        assert done.returncode == 0, done.stdout + done.stderr
        assert ("rebasing onto main" in done.stdout) == (n > 1)  # seen before or at the push

    # the one post job: the branch head, every shard's push in it
    job = tmp_path / "post"
    settings = post_job(origin, job, env)
    assert {"data/state", "data/feeds"} <= set(settings["sparse-checkout"].split())
    assert (job / "data/state/partitions-shard-3-of-3.json").exists()
    report = post(site, job / "data", mastodon_account(mastodon), bluesky_account(bluesky))
    assert len(report.posted) == 8
    # a commit lands before the ledger is pushed (a capture, a manual fix): rebased past
    late = tmp_path / "late"
    checkout(origin, late, {"fetch-depth": 1}, env=env)
    write(late, "data/state/captures.json", '{"checked_at": null}\n')
    git(late, "add", "-A", env=env)
    git(late, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-qm", "Late",
        env=env)  # fmt: skip
    git(late, "push", "-q", "origin", "HEAD:main", env=env)
    pushed = run_step(job, ledger_push, env=env, RUN_ID="9", BRANCH="main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert "(attempt 1); rebasing onto main" in pushed.stdout

    # a rerun of the job checks out the head: the ledger is there, and nothing is sent
    rerun = tmp_path / "rerun"
    post_job(origin, rerun, env)
    book = ledger(rerun / "data")
    for key in ORDER:
        for network in ("mastodon", "bluesky"):
            entry = book.entry(key, network)
            assert entry is not None and entry.status == POSTED
    assert (rerun / "data/state/captures.json").exists()
    sent = len(mastodon.requests), len(bluesky.requests)
    again = post(site, rerun / "data", mastodon_account(mastodon), bluesky_account(bluesky))
    assert again.posted == [] and again.failures == []
    assert len(mastodon.requests) == sent[0]
    assert (len(mastodon.requests), len(bluesky.requests)) == sent  # not even a login


def test_a_post_job_whose_ledger_push_was_lost_posts_nothing_twice(
    site: tuple[Path, Path],
    tmp_path: Path,
    env: dict[str, str],
    mastodon: FakeMastodon,
    bluesky: FakeBluesky,
) -> None:
    """The job posted, then died before its push: the branch has no ledger entry. The
    rerun sends every post again under the same keys: Mastodon answers with the statuses
    it made (within its hour), Bluesky refuses the record keys it holds, and the run finds
    those records. No second post on either network, and the threads go on."""
    origin = seed_origin(tmp_path, site[0], env)
    first = tmp_path / "first"
    post_job(origin, first, env)
    made = post(site, first / "data", mastodon_account(mastodon), bluesky_account(bluesky))
    assert len(made.posted) == 8
    statuses, records = dict(mastodon.statuses), dict(bluesky.records)
    # the push never happened: a fresh checkout has no ledger
    rerun = tmp_path / "rerun"
    post_job(origin, rerun, env)
    assert not (rerun / "data/state/posted.json").exists()

    again = post(site, rerun / "data", mastodon_account(mastodon), bluesky_account(bluesky))

    assert mastodon.statuses == statuses and bluesky.records == records
    assert len(again.posted) == 8 and not again.failures
    book, before = ledger(rerun / "data"), ledger(first / "data")
    for key in ORDER:
        for network in ("mastodon", "bluesky"):
            entry, earlier = book.entry(key, network), before.entry(key, network)
            assert entry is not None and earlier is not None and entry.status == POSTED
            assert entry.post_id == earlier.post_id
