"""The hourly job's clone, for real: cloned from a local bare origin by update.yml's own
clone step (the newest commit, no tree but those of the folders a run reads, a sparse
index), then the workflow's other steps run in it: the documents still observed are
added, a push race is lost, rebased and won, and the build's widening brings back all of
data/ — without ever downloading the archive's history."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"

OLD = "data/documents/2026/01/05/news-example-org-0a1b2c3d4e5f6071/document.json"
ACTIVE = "data/documents/2026/11/28/news-example-org-5358b171ce9e8281/document.json"
SIBLING = "data/documents/2026/11/28/news-example-org-77a1b2c3d4e5f607/document.json"
CHECKS = "data/documents/2026/11/28/checks.json"
ACTIVE_PATHS = (
    "data/feeds\ndata/state\ndata/documents/2026/11/28/news-example-org-5358b171ce9e8281\n"
)


def git(repo: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def steps(workflow: str, job: str) -> list[dict[str, Any]]:
    document = yaml.safe_load((WORKFLOWS / workflow).read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = document["jobs"][job]["steps"]
    return found


def step(workflow: str, job: str, name: str) -> dict[str, Any]:
    return next(s for s in steps(workflow, job) if s.get("name") == name)


def run_step(
    repo: Path, found: dict[str, Any], *, env: dict[str, str], **values: str
) -> subprocess.CompletedProcess[str]:
    """Run a step's script as Actions does (``shell: bash``), its ``env`` given by ``values``."""
    script = repo.parent / f"{repo.name}-step.sh"
    script.write_text(found["run"], encoding="utf-8")
    missing = set(found.get("env", {})) - set(values)
    assert not missing, f"give the step's variables {missing}"
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=repo,
        env={**env, **values},
        capture_output=True,
        text=True,
        check=False,
    )


def checkout(origin: str, repo: Path, settings: dict[str, Any], *, env: dict[str, str]) -> None:
    """What actions/checkout runs for ``settings`` (its ``with:``) on a fresh runner."""
    repo.mkdir()
    git(repo, "init", "-q", env=env)
    git(repo, "remote", "add", "origin", origin, env=env)
    git(repo, "config", "--local", "gc.auto", "0", env=env)
    sha = git(repo, "ls-remote", "origin", "refs/heads/main", env=env).split()[0]
    fetch = ["-c", "protocol.version=2", "fetch", "--no-tags", "--prune", "--no-recurse-submodules"]
    cone = settings.get("sparse-checkout", "").split()
    filter_ = settings.get("filter") or ("blob:none" if cone else None)
    if filter_:
        fetch.append(f"--filter={filter_}")
    if settings.get("fetch-depth", 1) > 0:
        fetch.append(f"--depth={settings.get('fetch-depth', 1)}")
    git(repo, *fetch, "origin", f"+{sha}:refs/remotes/origin/main", env=env)
    if cone:
        git(repo, "sparse-checkout", "set", "--cone", *cone, env=env)
    git(repo, "checkout", "-q", "--force", "-B", "main", "refs/remotes/origin/main", env=env)


def clone(origin: str, repo: Path, workflow: str, job: str, *, env: dict[str, str]) -> None:
    """The workflow's own clone step, run in an empty folder as on a fresh runner."""
    repo.mkdir()
    sha = git(repo.parent, "ls-remote", origin, "refs/heads/main", env=env).split()[0]
    found = step(workflow, job, "Clone the newest commit and the folders every run reads")
    done = run_step(
        repo, found, env=env, ORIGIN=origin, SERVER="file://", TOKEN="", SHA=sha, BRANCH="main"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "::warning::" not in done.stdout


def write(repo: Path, path: str, text: str) -> None:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No configuration of the machine running the tests; a stand-in ``quietedit`` whose
    ``sparse-paths`` names the documents still observed, as the real one would (and the
    real ``fetch-trees``)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    quietedit = bin_dir / "quietedit"
    # with --fetch-trees, the real tree fetch (-P: not the stand-in package of the clone)
    fetch = (
        f"{sys.executable} -P -c 'import sys, pathlib; from quietedit.archive.gittrees "
        "import fetch_trees; sys.exit(fetch_trees(pathlib.Path.cwd(), sys.stdin.read()"
        ".split()).failed)'"
    )
    quietedit.write_text(
        "#!/bin/sh\n"
        f'case "$*" in fetch-trees*) exec {sys.executable} -P -m quietedit "$@" ;; esac\n'
        'case "$*" in *--all*) paths="data\\n" ;; sparse-paths*) paths="'
        f'{ACTIVE_PATHS.replace(chr(10), chr(92) + "n")}" ;; *) exit 0 ;; esac\n'
        f'case "$*" in *--fetch-trees*) printf "$paths" | {fetch} || exit 1 ;; esac\n'
        'printf "$paths"\n',
        encoding="utf-8",
    )
    quietedit.chmod(0o755)
    return {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "PUSH_RETRY_SECONDS": "0",
        "LANG": "C",
    }


@pytest.fixture
def origin(tmp_path: Path, env: dict[str, str]) -> str:
    """A bare origin (serving partial clones, as GitHub does) holding a small archive with
    some history: a retired partition, an active one, the code and the scripts."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare), env=env)
    git(bare, "config", "uploadpack.allowFilter", "true", env=env)
    seed = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(seed), env=env)
    git(seed, "config", "user.name", "Tests", env=env)
    git(seed, "config", "user.email", "tests@example.org", env=env)
    for name in ("push-data.sh", "upload-evidence.sh"):
        target = seed / ".github" / "scripts" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / ".github" / "scripts" / name, target)
    for path, text in {
        "pyproject.toml": "[project]\nname = 'quietedit'\n",
        "feeds.yaml": "feeds: []\n",
        "quietedit/__init__.py": "",
        "templates/base.html": "<!doctype html>\n",
        "tests/test_x.py": "",
        "docs/github.md": "# Running on GitHub\n",
        "data/README.md": "# The quietedit archive\n",
        "data/feeds/news.json": '{"polls": 1}\n',
        "data/state/partitions.json": '{"active": ["2026/11/28"]}\n',
        "data/index/53/535/entries.json": '{"documents": {}}\n',
        OLD: '{"title": "An old story"}\n',
        ACTIVE: '{"title": "Council approves budget"}\n',
        SIBLING: '{"title": "Ferry timetable"}\n',
        CHECKS: '{"documents": {}}\n',
    }.items():
        write(seed, path, text)
    git(seed, "add", "-A", env=env)
    git(seed, "commit", "-q", "-m", "The archive so far", env=env)
    for hour in range(3):  # history a clone of the newest commit does without
        write(seed, OLD, f'{{"title": "An old story", "checks": {hour}}}\n')
        git(seed, "commit", "-q", "-am", f"Ingest hour {hour}", env=env)
    git(seed, "push", "-q", str(bare), "main", env=env)
    return bare.as_uri()


def held_objects(repo: Path, env: dict[str, str]) -> set[str]:
    """Every object the clone holds (listed without fetching any)."""
    listing = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)", env=env)
    return set(listing.split())


def missing_objects(repo: Path, env: dict[str, str]) -> set[str]:
    """Objects HEAD names that the clone does not hold (listed without fetching them)."""
    listing = git(repo, "rev-list", "--objects", "--missing=print", "HEAD", env=env)
    return {line[1:] for line in listing.splitlines() if line.startswith("?")}


def test_the_hourly_clone_loses_a_push_race_rebases_and_pushes_without_the_archive(
    tmp_path: Path, origin: str, env: dict[str, str]
) -> None:
    partitions = step("update.yml", "ingest-and-build", "Check out the documents this run reads")
    push = step(
        "update.yml", "ingest-and-build", "Commit and push data (rebase and retry on a push race)"
    )
    widen = step("update.yml", "ingest-and-build", "Check out all of data/ for a full build")
    first, second = tmp_path / "first", tmp_path / "second"
    for repo in (first, second):
        clone(origin, repo, "update.yml", "ingest-and-build", env=env)
        added = run_step(repo, partitions, env=env)
        assert added.returncode == 0, added.stderr

    # what a run reads is there; the retired partition, the tests and the history are not
    assert (first / ACTIVE).exists() and (first / "data/state/partitions.json").exists()
    assert (first / ".github/scripts/push-data.sh").exists()
    assert not (first / OLD).exists() and not (first / "tests").exists()
    # of a partition, the document still observed and the checks file, not its neighbour
    assert (first / CHECKS).exists() and not (first / SIBLING).exists()
    # nor the index, which grows with the archive: a run fetches the shards it reads
    assert not (first / "data/index").exists()
    assert git(first, "rev-parse", "--is-shallow-repository", env=env) == "true"
    # nor the folder listings (trees) of the retired month: only its own listing came
    bare = Path(origin.removeprefix("file://"))
    month = git(bare, "rev-parse", "main:data/documents/2026/01", env=env)
    retired = git(bare, "rev-parse", "main:data/documents/2026/01/05", env=env)
    absent = missing_objects(first, env)
    assert retired in absent and month not in absent
    # (read in the origin: a path of the clone's would make git fetch the folders on it)
    old_blob = git(bare, "rev-parse", f"main:{OLD}", env=env)
    assert old_blob not in held_objects(first, env)
    # a sparse index: the folders left out are one entry each, not every path below them
    listed = git(first, "ls-files", "--sparse", env=env).splitlines()
    assert OLD not in listed
    assert any(line.endswith("/") and OLD.startswith(line) for line in listed)

    # two runs (two shards, say) write disjoint files; one writes a partition it did not
    # check out, for a document first seen after midnight
    new_document = "data/documents/2026/11/30/news-example-net-9f8e7d6c5b4a3210/document.json"
    write(first, new_document, '{"title": "Bridge reopens"}\n')
    write(first, "data/state/partitions-shard-1-of-2.json", '{"active": ["2026/11/30"]}\n')
    write(second, ACTIVE, '{"title": "Council approves amended budget"}\n')
    write(second, "data/state/partitions-shard-2-of-2.json", '{"active": ["2026/11/28"]}\n')

    won = run_step(second, push, env=env, RUN_ID="2", BRANCH="main")
    assert won.returncode == 0, won.stdout + won.stderr
    assert "push rejected" not in won.stdout
    lost = run_step(first, push, env=env, RUN_ID="1", BRANCH="main")
    assert lost.returncode == 0, lost.stdout + lost.stderr
    assert "rebasing onto main" in lost.stdout

    # the origin has both runs' commits, one after the other, and both runs' files
    check = tmp_path / "check"
    git(tmp_path, "clone", "-q", origin, str(check), env=env)
    subjects = git(check, "log", "--format=%s", "-3", env=env).splitlines()
    assert subjects[0].startswith("Ingest ") and subjects[0].endswith("(run 1)")
    assert subjects[1].endswith("(run 2)") and subjects[2] == "Ingest hour 2"
    assert (check / new_document).read_text(encoding="utf-8") == '{"title": "Bridge reopens"}\n'
    assert "amended" in (check / ACTIVE).read_text(encoding="utf-8")
    assert (check / "data/state/partitions-shard-1-of-2.json").exists()
    # ... and the clone that rebased is still shallow and never fetched the old partition,
    # its files nor its folder listings (trees): the rebase fetched the trees it reads only
    assert git(first, "rev-parse", "--is-shallow-repository", env=env) == "true"
    assert not {old_blob, retired} & held_objects(first, env)
    assert git(first, "status", "--porcelain", "--", "data", env=env) == ""

    # the build's widening fetches the rest of data/, at the pushed commit
    widened = run_step(first, widen, env=env)
    assert widened.returncode == 0, widened.stderr
    assert 'checks": 2' in (first / OLD).read_text(encoding="utf-8")
    assert (first / new_document).exists() and "amended" in (first / ACTIVE).read_text("utf-8")
    assert not (first / "tests").exists()


def test_both_ingest_workflows_clone_alike() -> None:
    name = "Clone the newest commit and the folders every run reads"
    hourly = step("update.yml", "ingest-and-build", name)
    sharded = step("update-sharded.yml", "ingest", name)
    assert hourly == sharded
    assert "--filter=tree:0" in hourly["run"] and "--sparse-index" in hourly["run"]


def test_a_push_that_keeps_losing_fails_loudly_after_five_attempts(
    tmp_path: Path, origin: str, env: dict[str, str]
) -> None:
    push = step(
        "update.yml", "ingest-and-build", "Commit and push data (rebase and retry on a push race)"
    )
    repo = tmp_path / "clone"
    clone(origin, repo, "update.yml", "ingest-and-build", env=env)
    write(repo, "data/state/partitions.json", '{"active": []}\n')
    # a remote that refuses every push, as a protected branch would
    hook = Path(origin.removeprefix("file://")) / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'refused' >&2\nexit 1\n", encoding="utf-8")
    hook.chmod(0o755)

    done = run_step(repo, push, env=env, RUN_ID="7", BRANCH="main")

    assert done.returncode == 1
    assert done.stdout.count("push rejected") == 4
    assert "::error::could not push the new revisions after 5 attempts" in done.stdout


def test_a_fetch_that_fails_once_is_retried_and_the_run_is_pushed(
    tmp_path: Path, origin: str, env: dict[str, str]
) -> None:
    push = step(
        "update.yml", "ingest-and-build", "Commit and push data (rebase and retry on a push race)"
    )
    repo = tmp_path / "clone"
    clone(origin, repo, "update.yml", "ingest-and-build", env=env)
    write(repo, "data/state/partitions.json", '{"active": []}\n')
    # a git whose first fetch of the branch fails, as a dropped connection would
    real = shutil.which("git", path=env["PATH"])
    assert real is not None
    flaky = tmp_path / "flaky-bin"
    flaky.mkdir()
    failed = tmp_path / "failed-once"
    (flaky / "git").write_text(
        "#!/bin/sh\n"
        f'case "$*" in *fetch*--filter=tree:0*origin*) if [ ! -e {failed} ]; then '
        f": > {failed}; echo 'fatal: unable to access origin' >&2; exit 128; fi ;; esac\n"
        f'exec {real} "$@"\n',
        encoding="utf-8",
    )
    (flaky / "git").chmod(0o755)

    done = run_step(
        repo, push, env={**env, "PATH": f"{flaky}{os.pathsep}{env['PATH']}"},
        RUN_ID="7", BRANCH="main",
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    assert failed.exists()
    assert "::warning::could not fetch main (attempt 1)" in done.stdout
    bare = Path(origin.removeprefix("file://"))
    assert git(bare, "rev-parse", "main", env=env) == git(repo, "rev-parse", "HEAD", env=env)


def test_the_sharded_build_fetches_back_to_the_runs_first_commit_and_no_further(
    tmp_path: Path, origin: str, env: dict[str, str]
) -> None:
    build = steps("update-sharded.yml", "build")
    settings = build[0]["with"]
    deepen = step(
        "update-sharded.yml",
        "build",
        "Fetch the history since the run began (verify --since reads it)",
    )
    clone = tmp_path / "build"
    checkout(origin, clone, settings, env=env)
    bare = Path(origin.removeprefix("file://"))
    before = git(bare, "rev-parse", "main~2", env=env)  # the shards pushed twice since
    shallow_before = git(clone, "rev-list", "--count", "HEAD", env=env)

    done = run_step(clone, deepen, env=env, BEFORE=before, BRANCH="main")

    assert done.returncode == 0, done.stdout + done.stderr
    assert shallow_before == "1"
    git(clone, "merge-base", "--is-ancestor", before, "HEAD", env=env)
    unknown = run_step(clone, deepen, env=env, BEFORE="0" * 40, BRANCH="main")
    assert unknown.returncode == 1
    assert "is not among the 100 commits before the branch head" in unknown.stdout
