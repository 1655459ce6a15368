"""A stand-in for the GitHub CLI, ``gh``, for the tests of the workflows' evidence upload
(``.github/scripts/upload-evidence.sh``) and database release (``publish-database.sh``,
``download-database.sh``): the ``gh release`` and ``gh api`` calls those scripts make,
answered from releases kept as plain files, never from the network.

Run as ``python fake_gh.py ARGS...`` (the tests put a ``gh`` that does so first on PATH).
Environment:

- ``FAKE_GH_HOME``: the folder holding the releases (``releases.json``, the assets'
  bytes under ``assets/``) and the log of every call (``calls.jsonl``, one JSON list of
  arguments a line).
- ``GH_REPO``: required, as the real ``gh`` needs a repository outside a clone; ``gh api``
  paths name it, or ``{owner}/{repo}`` in its place.
- ``FAKE_GH_FAIL_UPLOAD``: comma-separated asset names whose upload is cut off: the call
  fails and the release keeps a half-uploaded asset (state ``starter``), as GitHub does.
- ``FAKE_GH_PAGE_SIZE``: assets per page of ``releases/<id>/assets`` (default 2), so a
  listing without ``--paginate`` misses assets as it would on GitHub.

``--jq`` runs the real ``jq`` (``gh`` has it built in), on each page like ``gh``.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Asset = dict[str, Any]
Release = dict[str, Any]


@dataclass(frozen=True)
class Releases:
    """The releases of the fake repository, kept in ``home``."""

    home: Path

    def load(self) -> dict[str, Any]:
        path = self.home / "releases.json"
        if not path.exists():
            return {"next_id": 1, "releases": {}}
        state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return state

    def save(self, state: dict[str, Any]) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "releases.json").write_text(json.dumps(state, indent=1), encoding="utf-8")

    def create(self, tag: str, *, latest: bool = True, title: str = "", notes: str = "") -> None:
        state = self.load()
        state["releases"][tag] = {
            "id": state["next_id"],
            "tag_name": tag,
            "name": title,
            "body": notes,
            "latest": latest,
            "assets": {},
        }
        state["next_id"] += 1
        self.save(state)

    def add_asset(self, tag: str, name: str, data: bytes, *, state_name: str = "uploaded") -> None:
        state = self.load()
        asset_id = state["next_id"]
        state["next_id"] += 1
        state["releases"][tag]["assets"][name] = {
            "id": asset_id,
            "name": name,
            "size": len(data),
            "state": state_name,
        }
        (self.home / "assets").mkdir(parents=True, exist_ok=True)
        (self.home / "assets" / str(asset_id)).write_bytes(data)
        self.save(state)

    def tags(self) -> list[str]:
        return sorted(self.load()["releases"])

    def release(self, tag: str) -> Release:
        release: Release = self.load()["releases"][tag]
        return release

    def asset_bytes(self, tag: str, name: str) -> bytes:
        asset_id = self.release(tag)["assets"][name]["id"]
        return (self.home / "assets" / str(asset_id)).read_bytes()

    def calls(self) -> list[list[str]]:
        path = self.home / "calls.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def fail(message: str) -> int:
    sys.stderr.write(message + "\n")
    return 1


def by_id(state: dict[str, Any], release_id: int) -> Release | None:
    return next((r for r in state["releases"].values() if r["id"] == release_id), None)


def asset_by_id(state: dict[str, Any], asset_id: int) -> tuple[Release, Asset] | None:
    for release in state["releases"].values():
        for asset in release["assets"].values():
            if asset["id"] == asset_id:
                return release, asset
    return None


def asset_json(asset: Asset) -> Asset:
    return {**asset, "content_type": "application/gzip", "url": f"assets/{asset['id']}"}


def emit(pages: list[Any], jq: str | None) -> None:
    for page in pages:
        text = json.dumps(page)
        if jq is not None:
            done = subprocess.run(
                ["jq", "-r", jq], input=text, capture_output=True, text=True, check=True
            )
            text = done.stdout
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def api(store: Releases, args: list[str]) -> int:
    method, jq, paginate, accept, path = "GET", None, False, "", ""
    rest = iter(args)
    for arg in rest:
        if arg == "-X":
            method = next(rest)
        elif arg == "--jq":
            jq = next(rest)
        elif arg == "-H":
            accept = next(rest)
        elif arg == "--paginate":
            paginate = True
        else:
            path = arg
    repo = os.environ["GH_REPO"]
    match = re.fullmatch(r"repos/(\{owner\}/\{repo\}|[^/]+/[^/]+)/releases/(.+)", path)
    if match is None or match.group(1) not in ("{owner}/{repo}", repo):
        return fail(f"fake gh: no such API path {path!r}")
    route = match.group(2)
    state = store.load()
    if route == "latest":  # the release marked latest (the last one so marked)
        marked = [r for r in state["releases"].values() if r["latest"]]
        if not marked:
            return fail("gh: Not Found (HTTP 404)")
        release = max(marked, key=lambda r: r["id"])
        body = {k: v for k, v in release.items() if k not in ("assets", "latest")}
        emit([{**body, "assets": [asset_json(a) for a in release["assets"].values()]}], jq)
        return 0
    if found := re.fullmatch(r"tags/([^/?]+)", route):
        release = state["releases"].get(found.group(1))
        if release is None:
            return fail("gh: Not Found (HTTP 404)")
        body = {k: v for k, v in release.items() if k not in ("assets", "latest")}
        emit([{**body, "assets": [asset_json(a) for a in release["assets"].values()]}], jq)
        return 0
    if found := re.fullmatch(r"(\d+)/assets(\?.*)?", route):
        release = by_id(state, int(found.group(1)))
        if release is None:
            return fail("gh: Not Found (HTTP 404)")
        assets = [asset_json(a) for a in release["assets"].values()]
        size = int(os.environ.get("FAKE_GH_PAGE_SIZE", "2"))
        pages = [assets[at : at + size] for at in range(0, len(assets), size)] or [[]]
        emit(pages if paginate else pages[:1], jq)
        return 0
    if found := re.fullmatch(r"assets/(\d+)", route):
        hit = asset_by_id(state, int(found.group(1)))
        if hit is None:
            return fail("gh: Not Found (HTTP 404)")
        release, asset = hit
        if method == "DELETE":
            del release["assets"][asset["name"]]
            store.save(state)
            return 0
        if accept != "Accept: application/octet-stream":
            emit([asset_json(asset)], jq)
            return 0
        sys.stdout.buffer.write((store.home / "assets" / str(asset["id"])).read_bytes())
        return 0
    return fail(f"fake gh: no such API path {path!r}")


def release_create(store: Releases, args: list[str]) -> int:
    tag, title, notes, latest = args[0], "", "", True
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--title":
            title = next(rest)
        elif arg == "--notes":
            notes = next(rest)
        elif arg.startswith("--latest"):
            latest = arg != "--latest=false"
        else:
            return fail(f"fake gh: unknown flag {arg!r}")
    if tag in store.load()["releases"]:
        return fail(f"a release with the same tag name already exists: {tag}")
    store.create(tag, latest=latest, title=title, notes=notes)
    return 0


def release_upload(store: Releases, args: list[str]) -> int:
    tag, files = args[0], [Path(a) for a in args[1:] if not a.startswith("-")]
    if "--clobber" in args:
        return fail("fake gh: --clobber would replace evidence")
    if tag not in store.load()["releases"]:
        return fail(f"release not found: {tag}")
    existing = [f.name for f in files if f.name in store.release(tag)["assets"]]
    if existing:
        return fail(f"asset under the same name already exists: {existing}")
    cut_off = set(filter(None, os.environ.get("FAKE_GH_FAIL_UPLOAD", "").split(",")))
    for file in files:
        data = file.read_bytes()
        if file.name in cut_off:
            store.add_asset(tag, file.name, data[: len(data) // 2], state_name="starter")
            return fail(f"HTTP 502: upload of {file.name} cut off")
        store.add_asset(tag, file.name, data)
    return 0


def release_download(store: Releases, args: list[str]) -> int:
    """``gh release download TAG --dir DIR --pattern GLOB...``: the uploaded assets that
    match, written into DIR (an error when none does, as ``gh`` gives)."""
    tag, folder, patterns = args[0], Path("."), []
    rest = iter(args[1:])
    for arg in rest:
        if arg in ("--dir", "-D"):
            folder = Path(next(rest))
        elif arg in ("--pattern", "-p"):
            patterns.append(next(rest))
        else:
            return fail(f"fake gh: unknown flag {arg!r}")
    if tag not in store.load()["releases"]:
        return fail("release not found")
    assets = store.release(tag)["assets"]
    names = [
        n
        for n, a in sorted(assets.items())
        if a["state"] == "uploaded" and any(fnmatch.fnmatchcase(n, p) for p in patterns)
    ]
    if not names:
        return fail("no assets match the file pattern")
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(store.asset_bytes(tag, name))
    return 0


def main(argv: list[str]) -> int:
    store = Releases(Path(os.environ["FAKE_GH_HOME"]))
    store.home.mkdir(parents=True, exist_ok=True)
    with (store.home / "calls.jsonl").open("a", encoding="utf-8") as log:
        log.write(json.dumps(argv) + "\n")
    if "GH_REPO" not in os.environ:
        return fail("fake gh: GH_REPO is not set")
    if argv[:1] == ["api"]:
        return api(store, argv[1:])
    if argv[:2] == ["release", "create"]:
        return release_create(store, argv[2:])
    if argv[:2] == ["release", "upload"]:
        return release_upload(store, argv[2:])
    if argv[:2] == ["release", "download"]:
        return release_download(store, argv[2:])
    return fail(f"fake gh: unsupported call {argv!r}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
