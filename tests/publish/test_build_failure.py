"""A build that fails after search indexing began leaves no Pagefind process, thread or
work folder behind (``quietedit serve`` goes on rebuilding in the same process)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from quietedit.errors import PublishError, QuieteditError
from quietedit.model import Publisher
from quietedit.publish import BuildOptions, batches, build_site, search
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
    # enough documents to render in forked workers; the first chunk a worker takes kills
    # its own process with SIGKILL, as the out-of-memory killer would (the workers are
    # forked copies of this process, so they inherit the patched function)
    parent = os.getpid()
    render_chunk = batches.render_chunk

    def killed_in_a_worker(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return render_chunk(*args, **kwargs)

    monkeypatch.setattr(batches, "render_chunk", killed_in_a_worker)
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
    with pytest.raises(PublishError, match="render worker died"):
        build_site(
            BuildOptions(
                data=data, out=tmp_path / "site", base_url=BASE_URL, sources=SOURCES,
                search=False, workers=2,
            )
        )  # fmt: skip
    deadline = time.monotonic() + 10  # the other worker, killed, is reaped soon after
    while not set(child_processes()) <= before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(child_processes()) <= before  # no worker left behind
