"""What the hourly job's clone downloads, and how long it takes, at two archive ages.

Builds a synthetic archive with the layout's tree shape (``data/documents/YYYY/MM/DD/<id>/``
with ``document.json`` and ``revisions/``, a partition's ``checks.json``, 256 index files)
at ``--rate`` documents a day, a quarter of them edited once, one commit a day, into a
bare origin (``git fast-import``: seconds, not the hours of ``bench/year.py``). Then, for
each age, it clones as the hourly job does, two ways:

- ``before``: what ``update.yml`` did until now, the newest commit without file contents
  (``--filter=blob:none --depth=1``), which brings every tree of the archive;
- ``after``: ``update.yml``'s own clone step (``--filter=tree:0``, the listings a run reads
  fetched by id, a sparse index), then ``quietedit.archive.gittrees.fetch_trees``;

and both add the documents a run observes (today's and yesterday's partitions whole, the
edited quarter of the 26 days before) with ``git sparse-checkout add --stdin``, write a
new document and a new revision, ``git add --sparse data``, commit and push. It prints the
objects and bytes each clone holds, git's own fetches of missing objects, and seconds per
step.

    python bench/clone_trees.py --days 7 --days 90 --rate 1000
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.archive.gittrees import fetch_trees  # noqa: E402

START = dt.date(2026, 1, 1)
WINDOW = 28  # days a document stays observed, about what the re-check policy does
CODE = ("quietedit/__init__.py", "templates/base.html", ".github/scripts/push-data.sh")


def doc_id(day: int, number: int) -> str:
    return "news-example-org-" + hashlib.sha256(f"{day}-{number}".encode()).hexdigest()[:16]


def partition(day: int) -> str:
    return f"data/documents/{START + dt.timedelta(days=day):%Y/%m/%d}"


def fast_import_stream(days: int, rate: int) -> bytes:
    """One commit of code and state, then one commit a day of ``rate`` documents."""
    out: list[bytes] = []

    def commit(message: str, files: list[tuple[str, bytes]]) -> None:
        out.append(
            b"commit refs/heads/main\ncommitter Bench <bench@example.org> 1767225600 +0000\n"
            + b"data %d\n%s\n" % (len(message), message.encode())
        )
        for path, data in files:
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))

    base = [(path, b"# code\n") for path in CODE]
    base += [("pyproject.toml", b"[project]\n"), ("data/feeds/news.json", b"{}\n")]
    base += [("data/state/partitions.json", b"{}\n"), ("docs/github.md", b"# docs\n")]
    base += [
        (f"data/index/{shard >> 4:02x}/{shard:03x}/entries.json", b"{}\n") for shard in range(4096)
    ]
    commit("The code", base)
    for day in range(days):
        files = [(f"{partition(day)}/checks.json", b'{"documents": {"day": %d}}\n' % day)]
        for number in range(rate):
            folder = f"{partition(day)}/{doc_id(day, number)}"
            record = f'{{"id": "{doc_id(day, number)}", "title": "Story {day}-{number}"}}\n'
            files.append((f"{folder}/document.json", record.encode() * 8))
            text = f'{{"text": "{day} {number} "}}\n'.encode() * 40
            files.append((f"{folder}/revisions/000001-{number:04x}.json", text))
            if number % 4 == 0:
                files.append((f"{folder}/revisions/000002-{number:04x}.json", text + b"edit\n"))
        commit(f"Day {day}", files)
    return b"".join(out)


def observed(days: int, rate: int) -> list[str]:
    paths = ["data/feeds", "data/state", "data/index"]
    for day in range(max(0, days - WINDOW), days):
        if day >= days - 2:
            paths.append(partition(day))
        else:
            paths += [f"{partition(day)}/{doc_id(day, n)}" for n in range(0, rate, 4)]
    return paths


def git(repo: Path, *args: str, stdin: str | None = None, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, input=stdin, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def clone_step() -> str:
    steps = yaml.safe_load((ROOT / ".github/workflows/update.yml").read_text("utf-8"))
    for step in steps["jobs"]["ingest-and-build"]["steps"]:
        if step.get("name") == "Clone the newest commit and the folders every run reads":
            return str(step["run"])
    raise SystemExit("update.yml has no clone step")


def measure(origin: Path, work: Path, mode: str, paths: list[str], days: int) -> dict[str, object]:
    repo = work / mode
    repo.mkdir()
    trace = work / f"{mode}.trace"
    env = {
        **os.environ,
        "GIT_TRACE2_EVENT": str(trace),
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
    }
    sha = git(origin, "rev-parse", "main", env=env).strip()
    seconds: dict[str, float] = {}
    began = time.perf_counter()
    if mode == "before":
        git(repo, "init", "-q", "-b", "main", env=env)
        git(repo, "remote", "add", "origin", origin.as_uri(), env=env)
        git(repo, "config", "gc.auto", "0", env=env)
        fetch = ["fetch", "-q", "--no-tags", "--filter=blob:none", "--depth=1"]
        git(repo, *fetch, "origin", f"+{sha}:refs/remotes/origin/main", env=env)
        cone = (".github", "quietedit", "templates", "data/feeds", "data/state", "data/index")
        git(repo, "sparse-checkout", "set", "--cone", *cone, env=env)
        git(repo, "checkout", "-q", "--force", "-B", "main", "refs/remotes/origin/main", env=env)
        git(repo, "config", "index.sparse", "true", env=env)
    else:
        script = work / "clone.sh"
        script.write_text(clone_step(), encoding="utf-8")
        step_env = {**env, "ORIGIN": origin.as_uri(), "SERVER": "file://", "TOKEN": ""}
        step_env.update(SHA=sha, BRANCH="main")
        subprocess.run(["bash", "-eo", "pipefail", str(script)], cwd=repo, env=step_env, check=True)
    seconds["clone"] = time.perf_counter() - began
    began = time.perf_counter()
    if mode == "after":
        made = fetch_trees(repo, paths)
        if made.failed:
            raise SystemExit(f"the tree fetch failed: {made}")
    git(repo, "sparse-checkout", "add", "--stdin", stdin="\n".join(paths) + "\n", env=env)
    seconds["sparse add"] = time.perf_counter() - began
    counts = dict(
        line.split(": ") for line in git(repo, "count-objects", "-v", env=env).splitlines()
    )
    files = len(git(repo, "ls-files", "--sparse", env=env).splitlines())
    # one hour's work: a new document today, a new revision of an observed one, the state
    new = repo / partition(days - 1) / "news-example-org-ffffffffffffffff"
    (new / "revisions").mkdir(parents=True)
    (new / "document.json").write_text('{"title": "New"}\n', encoding="utf-8")
    (new / "revisions/000001-ffff.json").write_text('{"text": "new"}\n', encoding="utf-8")
    edited = repo / paths[4] / "revisions/000009-eeee.json"
    edited.write_text('{"text": "edited"}\n', encoding="utf-8")
    (repo / "data/state/partitions.json").write_text('{"run": 1}\n', encoding="utf-8")
    began = time.perf_counter()
    git(repo, "add", "--sparse", "data", env=env)
    git(repo, "commit", "-q", "-m", "Ingest", env=env)
    seconds["commit"] = time.perf_counter() - began
    began = time.perf_counter()
    pushed = subprocess.run(
        ["git", "push", "--porcelain", "origin", f"HEAD:refs/heads/bench-{mode}"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds["push"] = time.perf_counter() - began
    lines = trace.read_text(encoding="utf-8").splitlines()
    # git's own fetches of missing objects: `git fetch … --stdin` (the file contents of a
    # checkout come in one such batch; a tree git lacks would make one each)
    lazy = sum(
        1 for line in lines if '"child_start"' in line and '"fetch"' in line and '"--stdin"' in line
    )
    return {
        "objects": int(counts["in-pack"]) + int(counts["count"]),
        "pack KiB": int(counts["size-pack"]),
        "index entries": files,
        "git's own fetches": lazy,
        "pushed": "ok" if "Done" in pushed.stdout else pushed.stdout,
        **{name: round(value, 2) for name, value in seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, action="append", help="archive ages (repeatable)")
    parser.add_argument("--rate", type=int, default=1000, help="documents a day")
    args = parser.parse_args()
    for days in args.days or [7, 90]:
        with tempfile.TemporaryDirectory(prefix="clone-trees-") as folder:
            work = Path(folder)
            origin = work / "origin.git"
            env = dict(os.environ)
            subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
            git(origin, "config", "uploadpack.allowFilter", "true", env=env)
            began = time.perf_counter()
            subprocess.run(
                ["git", "fast-import", "--quiet"],
                cwd=origin,
                input=fast_import_stream(days, args.rate),
                check=True,
            )
            packed = dict(
                line.split(": ")
                for line in git(origin, "count-objects", "-v", env=env).splitlines()
            )
            print(
                f"day {days}: {days * args.rate} documents, origin {packed['in-pack']} objects, "
                f"{int(packed['size-pack']) // 1024} MiB "
                f"(built in {time.perf_counter() - began:.0f} s)"
            )
            paths = observed(days, args.rate)
            for mode in ("before", "after"):
                print(f"  {mode:6}", measure(origin, work, mode, paths, days), flush=True)
            shutil.rmtree(work / "before", ignore_errors=True)


if __name__ == "__main__":
    main()
