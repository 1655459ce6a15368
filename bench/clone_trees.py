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

and both add the documents a run observes (today's and yesterday's partitions whole, and
``--observed-per-day`` documents of each of the 26 days before, by default the edited
quarter) with ``git sparse-checkout add --stdin``, write a new document and a new
revision, ``git add --sparse data``, commit and push. It prints the objects and bytes each
clone holds, git's own fetches of missing objects, the folder listings the tree fetch
asked for, the clone's ``.git/index`` (a sparse index: one entry per folder left out beside
one checked out), and wall and CPU seconds (user and system, of the git processes) per
step, the median of ``--repeats`` clones.

``--layout`` chooses where a document folder sits in its partition: ``buckets`` (the
archive's layout, ``<YYYY>/<MM>/<DD>/<bb>/<id>/``) or ``flat`` (``<YYYY>/<MM>/<DD>/<id>/``,
as partitions were first written); both by default, each its own origin.

    python bench/clone_trees.py --days 7 --days 90 --rate 1000
    python bench/clone_trees.py --days 7 --days 30 --days 365 --mode after \
        --observed-per-day 10 --repeats 3
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import shutil
import statistics
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


def folder_of(day: int, document: str, layout: str) -> str:
    """A document's folder: in its bucket (the first two hex digits of the id's tail) or,
    in the ``flat`` layout, directly in its partition."""
    inside = f"{document[-16:-14]}/{document}" if layout == "buckets" else document
    return f"{partition(day)}/{inside}"


def fast_import_stream(days: int, rate: int, layout: str) -> bytes:
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
            folder = folder_of(day, doc_id(day, number), layout)
            record = f'{{"id": "{doc_id(day, number)}", "title": "Story {day}-{number}"}}\n'
            files.append((f"{folder}/document.json", record.encode() * 8))
            text = f'{{"text": "{day} {number} "}}\n'.encode() * 40
            files.append((f"{folder}/revisions/000001-{number:04x}.json", text))
            if number % 4 == 0:
                files.append((f"{folder}/revisions/000002-{number:04x}.json", text + b"edit\n"))
        commit(f"Day {day}", files)
    return b"".join(out)


def observed(days: int, rate: int, layout: str, per_day: int) -> list[str]:
    paths = ["data/feeds", "data/state", "data/index"]
    step = max(1, rate // max(1, per_day))
    for day in range(max(0, days - WINDOW), days):
        if day >= days - 2:
            paths.append(partition(day))
        else:
            numbers = range(0, rate, step)[:per_day]
            paths += [folder_of(day, doc_id(day, n), layout) for n in numbers]
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


def children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def measure(
    origin: Path, work: Path, mode: str, paths: list[str], days: int, layout: str
) -> dict[str, float | int | str]:
    repo = work / mode
    shutil.rmtree(repo, ignore_errors=True)
    trace_file = work / f"{mode}.trace"
    trace_file.unlink(missing_ok=True)
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
    began, cpu = time.perf_counter(), children_cpu()

    def lap(step: str) -> None:
        nonlocal began, cpu
        seconds[step] = time.perf_counter() - began
        seconds[f"{step} cpu"] = children_cpu() - cpu
        began, cpu = time.perf_counter(), children_cpu()

    listings = 0
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
    lap("clone")
    if mode == "after":
        made = fetch_trees(repo, paths)
        if made.failed:
            raise SystemExit(f"the tree fetch failed: {made}")
        listings = made.trees
    lap("fetch trees")
    git(repo, "sparse-checkout", "add", "--stdin", stdin="\n".join(paths) + "\n", env=env)
    lap("sparse add")
    index_kib = (repo / ".git" / "index").stat().st_size // 1024
    counts = dict(
        line.split(": ") for line in git(repo, "count-objects", "-v", env=env).splitlines()
    )
    files = len(git(repo, "ls-files", "--sparse", env=env).splitlines())
    # one hour's work: a new document today, a new revision of an observed one, the state
    new = repo / folder_of(days - 1, "news-example-org-ffffffffffffffff", layout)
    (new / "revisions").mkdir(parents=True)
    (new / "document.json").write_text('{"title": "New"}\n', encoding="utf-8")
    (new / "revisions/000001-ffff.json").write_text('{"text": "new"}\n', encoding="utf-8")
    edited = repo / paths[4] / "revisions/000009-eeee.json"
    edited.write_text('{"text": "edited"}\n', encoding="utf-8")
    (repo / "data/state/partitions.json").write_text('{"run": 1}\n', encoding="utf-8")
    began, cpu = time.perf_counter(), children_cpu()
    git(repo, "add", "--sparse", "data", env=env)
    git(repo, "commit", "-q", "-m", "Ingest", env=env)
    lap("commit")
    pushed = subprocess.run(
        ["git", "push", "--porcelain", "origin", f"+HEAD:refs/heads/bench-{mode}"],  # repeats
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    lap("push")
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
        "index KiB": index_kib,
        "listings fetched": listings,
        "git's own fetches": lazy,
        "pushed": "ok" if "Done" in pushed.stdout else pushed.stdout,
        **{name: round(value, 2) for name, value in seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, action="append", help="archive ages (repeatable)")
    parser.add_argument("--rate", type=int, default=1000, help="documents a day")
    parser.add_argument(
        "--layout", action="append", choices=("buckets", "flat"), help="default: both"
    )
    parser.add_argument(
        "--observed-per-day", type=int, help="documents of each older day observed (rate / 4)"
    )
    parser.add_argument(
        "--mode", action="append", choices=("before", "after"), help="default: both"
    )
    parser.add_argument("--repeats", type=int, default=1, help="clones per mode (median)")
    parser.add_argument("--workdir", type=Path, help="default: the system's temp folder")
    args = parser.parse_args()
    per_day = args.observed_per_day or args.rate // 4
    runs = [
        (days, layout)
        for days in args.days or [7, 90]
        for layout in args.layout or ["buckets", "flat"]
    ]
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    for days, layout in runs:
        with tempfile.TemporaryDirectory(prefix="clone-trees-", dir=args.workdir) as folder:
            work = Path(folder)
            origin = work / "origin.git"
            env = dict(os.environ)
            subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
            git(origin, "config", "uploadpack.allowFilter", "true", env=env)
            began = time.perf_counter()
            subprocess.run(
                ["git", "fast-import", "--quiet"],
                cwd=origin,
                input=fast_import_stream(days, args.rate, layout),
                check=True,
            )
            packed = dict(
                line.split(": ")
                for line in git(origin, "count-objects", "-v", env=env).splitlines()
            )
            print(
                f"day {days}, {layout}: {days * args.rate} documents, "
                f"origin {packed['in-pack']} objects, "
                f"{int(packed['size-pack']) // 1024} MiB "
                f"(built in {time.perf_counter() - began:.0f} s)"
            )
            paths = observed(days, args.rate, layout, per_day)
            for mode in args.mode or ["before", "after"]:
                found = [
                    measure(origin, work, mode, paths, days, layout) for _ in range(args.repeats)
                ]
                figures = found[0] | {
                    key: round(statistics.median(float(run[key]) for run in found), 2)
                    for key, value in found[0].items()
                    if isinstance(value, float)
                }
                print(f"  {mode:6}", figures, f"load {os.getloadavg()[0]:.1f}", flush=True)
            shutil.rmtree(work / "before", ignore_errors=True)


if __name__ == "__main__":
    main()
