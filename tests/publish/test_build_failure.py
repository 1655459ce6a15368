"""A build that fails after search indexing began leaves no Pagefind process, thread or
work folder behind (``quietedit serve`` goes on rebuilding in the same process)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from quietedit.archive import gittrees, sparse
from quietedit.errors import PublishError, QuieteditError
from quietedit.model import Publisher
from quietedit.publish import BuildOptions, build_site, search
from quietedit.publish.batches import PARALLEL_THRESHOLD
from quietedit.publish.paths import CACHE_DIR
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, Story, write_archive


def child_processes() -> list[int]:
    me = str(os.getpid())
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="utf-8") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                found.append(int(name))
    return found


@pytest.mark.skipif(not search.search_available(), reason="pagefind is not installed")
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to list child processes")
def test_a_failed_build_stops_pagefind_and_removes_its_work(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_archive(data)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "stats.html").write_text("{{ undefined_thing.attr }}", encoding="utf-8")
    before = set(child_processes())
    for _ in range(2):
        with pytest.raises(QuieteditError):
            build_site(
                BuildOptions(
                    data=data, out=tmp_path / "site", base_url=BASE_URL, sources=SOURCES,
                    templates=templates,
                )
            )  # fmt: skip
    assert not [t for t in threading.enumerate() if t.name == "quietedit-search"]
    assert set(child_processes()) <= before
    assert not list((tmp_path / "site" / CACHE_DIR).glob("search-*"))


def test_a_render_worker_killed_mid_build_fails_the_build_instead_of_hanging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # enough documents to render in forked workers; the watcher kills the first worker it
    # sees, as the out-of-memory killer would. The build asks git whether the archive is a
    # sparse checkout, and for its tree ids; not here, so that its only children are the
    # workers (a git child is a fork of this process too until it runs git)
    monkeypatch.setattr(sparse, "checkout_cone", lambda root: None)
    monkeypatch.setattr(sparse, "check_out_everything", lambda root: False)
    monkeypatch.setattr(gittrees, "read", lambda root: None)
    stories = tuple(
        Story(
            f"https://news.example.org/local/2026/11/28/story-{n}",
            ("courier-world",),
            ((f"Story {n}", ("One.", "Two."), Publisher()), (f"Story {n}", ("One.",), Publisher())),
        )
        for n in range(PARALLEL_THRESHOLD + 10)
    )
    data = tmp_path / "data"
    write_archive(data, (*STORIES, *stories))  # its events name the first stories
    before = set(child_processes())
    stop = threading.Event()
    killed: list[int] = []

    def kill_first_worker() -> None:
        while not stop.is_set() and not killed:
            for pid in set(child_processes()) - before:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            time.sleep(0.005)

    watcher = threading.Thread(target=kill_first_worker, daemon=True)
    watcher.start()
    try:
        with pytest.raises(PublishError, match="render worker died"):
            build_site(
                BuildOptions(
                    data=data, out=tmp_path / "site", base_url=BASE_URL, sources=SOURCES,
                    search=False, workers=2,
                )
            )  # fmt: skip
    finally:
        stop.set()
        watcher.join()
    assert killed
