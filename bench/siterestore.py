"""The site carried from one hourly run to the next as ``update.yml`` carries it.

``actions/cache`` saves ``_site`` at the end of a run and restores it on the next run's
fresh runner (``createTar`` and ``extractTar`` of actions/toolkit's
``packages/cache/src/internal/tar.ts``): GNU tar in the POSIX (pax) format, piped through
``zstdmt --long=30``, the paths given in a manifest relative to the workspace; extracted
with ``unzstd --long=30``. Every file and folder is then new (new inodes), with the sizes
and times tar recorded. :func:`carry` does the same with the ``tar`` and ``zstd`` of this
machine (without zstd, uncompressed: the compression changes no file's metadata) and
returns what it cost, which is not part of the build's figures, and whether the restored
site still has the signature its record of pages holds (``publish/pagesrecord.py``: the
next build then neither lists the article folders nor checks every document with pages).
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from quietedit.publish import pagesrecord
from quietedit.publish.paths import CACHE_DIR


@dataclass(frozen=True, slots=True)
class Carried:
    """What saving and restoring the site cost: the archive's bytes, and wall and CPU
    seconds (tar and zstd) of each half; ``signed``: the restored site has the
    signature of its record of pages."""

    archive_bytes: int
    save_seconds: float
    save_cpu: float
    restore_seconds: float
    restore_cpu: float
    signed: bool

    def __str__(self) -> str:
        return (
            f"site saved and restored as actions/cache does: archive "
            f"{self.archive_bytes / 1e6:.1f} MB; save {self.save_cpu:.2f} s CPU "
            f"({self.save_seconds:.2f} s wall), restore {self.restore_cpu:.2f} s CPU "
            f"({self.restore_seconds:.2f} s wall); not counted in the build; the record "
            f"of pages {'matches' if self.signed else 'does not match'} the restored site"
        )


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(command: list[str], *, cwd: Path) -> tuple[float, float]:
    """Run ``command``; its wall and CPU seconds (with the compressor it starts)."""
    cpu, started = _children_cpu(), time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started, _children_cpu() - cpu


def carry(site: Path, *, work: Path) -> Carried:
    """Save ``site`` as ``actions/cache`` does (the archive in ``work``), remove it, and
    extract the archive into the folder that held it: the next run's site, every file
    new. The archive is removed after."""
    tar = shutil.which("tar")
    if tar is None:
        raise SystemExit("bench: restoring the site as actions/cache does needs GNU tar")
    zstd = shutil.which("zstdmt") and shutil.which("unzstd")
    work.mkdir(parents=True, exist_ok=True)
    archive = work / ("cache.tzst" if zstd else "cache.tar")
    manifest = work / "manifest.txt"
    manifest.write_text(site.name, encoding="utf-8")
    pack = ["--use-compress-program", "zstdmt --long=30"] if zstd else []
    unpack = ["--use-compress-program", "unzstd --long=30"] if zstd else []
    save = [tar, "--posix", *pack, "-cf", archive.name, "--exclude", archive.name, "-P"]
    save += ["-C", str(site.parent), "--files-from", manifest.name]
    save_seconds, save_cpu = _timed(save, cwd=work)
    size = archive.stat().st_size
    shutil.rmtree(site)  # the next runner starts without it
    restore = [tar, *unpack, "-xf", str(archive), "-P", "-C", str(site.parent)]
    restore_seconds, restore_cpu = _timed(restore, cwd=work)
    archive.unlink()
    manifest.unlink()
    signed = _recorded(site) == pagesrecord.signature(site)
    return Carried(size, save_seconds, save_cpu, restore_seconds, restore_cpu, signed)


def _recorded(site: Path) -> str | None:
    """The signature of ``articles/`` the record of pages holds (``None``: no record)."""
    try:
        found = json.loads((site / CACHE_DIR / pagesrecord.RECORD_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    return found.get("articles") if isinstance(found, dict) else None
