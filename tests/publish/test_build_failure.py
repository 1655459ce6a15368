"""A build that fails after search indexing began leaves no Pagefind process, thread or
work folder behind (``quietedit serve`` goes on rebuilding in the same process)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from quietedit.errors import QuieteditError
from quietedit.publish import BuildOptions, build_site, search
from quietedit.publish.paths import CACHE_DIR
from tests.publish.conftest import BASE_URL, SOURCES, write_archive


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
