"""Compiled copies of the extraction's hot modules, used only while they match their sources.

Installing quietedit compiles the modules that extraction spends its time in (the walk,
the page reduction, locating the article; the list is in ``pyproject.toml``) with mypyc,
the compiler that ships with mypy and turns type-annotated Python into a C extension with
the same behaviour. Where that cannot be done (no C compiler, an unsupported platform)
the install goes on without them, and everything runs as plain Python.

The compiled files live apart from the sources, in ``quietedit/_compiled/``, beside a
manifest naming each module with its file's size and the size and CRC-32 of the source it
was compiled from. :func:`activate`, run when the package is first imported, checks every
one of them and, only if all match, puts a finder in front of the import system that
loads those modules from their compiled files. An edited source therefore never runs as a
stale compiled copy: one changed file, and the whole set is plain Python again until the
next install.
Setting ``QUIETEDIT_PURE_PYTHON`` (to anything but empty) turns them off.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from types import ModuleType
from typing import Final, TypeAlias

# Paths are plain strings here: this runs at the start of every command, and ``pathlib``
# (with what it imports) would be a good part of the start-up of ``quietedit extract``.
PACKAGE: Final = os.path.dirname(os.path.realpath(__file__))
COMPILED: Final = os.path.join(PACKAGE, "_compiled")
MANIFEST_NAME: Final = "manifest.json"
OFF_SWITCH: Final = "QUIETEDIT_PURE_PYTHON"
StrPath: TypeAlias = str | os.PathLike[str]


class _CompiledFinder:
    """Finds the modules of one compiled set, and nothing else, in their compiled files."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, file), origin=file)
        spec.has_location = True
        return spec


def activate(folder: StrPath = COMPILED, *, package: StrPath = PACKAGE) -> bool:
    """Load the compiled modules in ``folder`` from now on, if they match their sources.

    Returns whether they will be used. Anything amiss — no manifest, a damaged one, files
    built for another Python, a missing file, a source changed since — means no: the
    plain modules are imported as usual. Runs once; a second call changes nothing.
    """
    if os.environ.get(OFF_SWITCH) or any(
        isinstance(finder, _CompiledFinder) for finder in sys.meta_path
    ):
        return False
    files = compiled_files(folder, package=package)
    if not files:
        return False
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


def compiled_files(folder: StrPath, *, package: StrPath = PACKAGE) -> dict[str, str]:
    """Module name -> compiled file's path, for a whole set that matches its sources; else empty.

    Each compiled file must have the size the manifest gives it (a truncated copy would
    crash the process that loads it), and each source the size and CRC-32 it was
    compiled from.
    """
    root = os.path.dirname(os.fspath(package))  # the manifest's paths start from here
    try:
        manifest = json.loads(_read(folder, MANIFEST_NAME))
        suffix = manifest["suffix"]
        if suffix not in EXTENSION_SUFFIXES:  # built for another interpreter
            return {}
        support = manifest["support"]
        entries = [(support["name"], support), *manifest["modules"].items()]
        files: dict[str, str] = {}
        for name, entry in entries:
            if "source" in entry:
                source = _read(root, *entry["source"].split("/"))
                if len(source) != entry["size"] or zlib.crc32(source) != entry["crc32"]:
                    return {}  # edited since it was compiled
            file = os.path.join(folder, *entry["file"].split("/"))
            if not file.endswith(suffix) or os.stat(file).st_size != entry["bytes"]:
                return {}
            files[name] = file
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return files


def _read(*parts: StrPath) -> bytes:
    """The bytes of the file at ``parts`` joined into a path."""
    with open(os.path.join(*parts), "rb") as file:
        return file.read()


def active_modules() -> tuple[str, ...]:
    """The modules that are being loaded from compiled files in this process, by name."""
    for finder in sys.meta_path:
        if isinstance(finder, _CompiledFinder):
            return tuple(sorted(name for name in finder.files if name.startswith("quietedit.")))
    return ()
