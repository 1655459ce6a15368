"""Build hook: compile extraction's hot modules with mypyc, or build without them.

Runs when a wheel is built, an editable one included (``pip install -e .``). The modules
named by ``compile`` under ``[tool.hatch.build.targets.wheel.hooks.custom]`` in
pyproject.toml are compiled, in a copy of the package made in a temporary folder (so the
checkout gains no build files), into C extensions. They go to ``quietedit/_compiled/``
with a manifest of the sources they came from (see ``quietedit/native.py``, which loads
them only while those sources are unchanged): into the wheel, or for an editable install
into the checkout, where git ignores them.

A failed compilation (no C compiler, no Python headers) is not a failed install: the
hook says why on stderr and the package stays plain Python. ``QUIETEDIT_PURE_PYTHON``
set to anything but empty skips the compilation.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zlib
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILE_TIMEOUT = 900  # seconds; a slow machine takes about a minute
_COMPILE = """
import sys
from mypyc.build import mypycify
from setuptools import setup

target, *sources = sys.argv[1:]
setup(
    name="quietedit-compiled",
    ext_modules=mypycify(sources, opt_level="3", target_dir=target + "/c"),
    script_args=["build_ext", "--build-lib", target + "/lib", "--build-temp", target + "/tmp"],
)
"""


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        output = root / "quietedit" / "_compiled"
        if version == "editable":
            shutil.rmtree(output, ignore_errors=True)  # never leave an older set behind
            _write_bytecode(root / "quietedit")
        sources = [str(source) for source in self.config.get("compile", [])]
        if not sources or os.environ.get("QUIETEDIT_PURE_PYTHON"):
            return
        with tempfile.TemporaryDirectory(prefix="quietedit-compile-") as temporary:
            work = Path(temporary)
            try:
                built = _compile(root, sources, work)
            except OSError as exc:  # a full disk, a read-only checkout: build it plain
                _skip(f"the compiled modules could not be built ({exc})")
                return
            if built is None:
                return
            if version == "editable":
                _install(built, output)
                return
            included: dict[str, str] = {}
            try:
                for file in sorted(built.rglob("*")):
                    if file.is_file():
                        # The temporary folder is gone by the time the wheel is written.
                        kept = root / "build" / "compiled" / file.relative_to(built)
                        kept.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(file, kept)
                        target = "quietedit/_compiled/" + file.relative_to(built).as_posix()
                        included[str(kept)] = target
            except OSError as exc:
                _skip(f"the compiled modules could not be kept for the wheel ({exc})")
                return
            build_data["force_include"].update(included)
            build_data["pure_python"] = False
            build_data["infer_tag"] = True


def _compile(root: Path, sources: list[str], work: Path) -> Path | None:
    """The compiled set with its manifest, in a folder under ``work``; None if it failed."""
    copy = work / "src"
    shutil.copytree(
        root / "quietedit",
        copy / "quietedit",
        ignore=shutil.ignore_patterns("__pycache__", "_compiled", "*.so", "*.pyd"),
    )
    # The compiler type-checks first. The project's own check is strict and runs in CI;
    # here only what compiling needs is asked, so that a newer checker's new complaint
    # cannot fail an install (third-party modules without types count as untyped).
    (copy / "mypy.ini").write_text("[mypy]\nignore_missing_imports = True\n", encoding="utf-8")
    command = [sys.executable, "-c", _COMPILE, str(work / "out"), *sources]
    try:
        done = subprocess.run(  # noqa: S603 - this interpreter, our own script
            command, cwd=copy, capture_output=True, text=True, timeout=COMPILE_TIMEOUT
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        _skip(f"the compiler did not run ({exc})")
        return None
    if done.returncode != 0:
        _skip("compilation failed:\n" + (done.stdout + done.stderr)[-3000:])
        return None
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    lib = work / "out" / "lib"
    built = work / "built"
    built.mkdir()
    modules: dict[str, dict[str, str | int]] = {}
    support: dict[str, str | int] = {}
    for file in sorted(lib.rglob("*" + suffix)):
        relative = file.relative_to(lib)
        name = ".".join(relative.parts).removesuffix(suffix)
        (built / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, built / relative)
        source = relative.with_name(relative.name.removesuffix(suffix) + ".py")
        if source.as_posix() in sources:
            data = (root / source).read_bytes()
            modules[name] = {
                "source": source.as_posix(),
                "size": len(data),
                "crc32": zlib.crc32(data),
                "file": relative.as_posix(),
                "bytes": file.stat().st_size,
            }
        elif name.endswith("__mypyc"):
            support = {"name": name, "file": relative.as_posix(), "bytes": file.stat().st_size}
    if sorted(str(entry["source"]) for entry in modules.values()) != sorted(sources) or not support:
        _skip(f"the compiler left {sorted(modules)} and {support or 'no support library'}")
        return None
    manifest = {"suffix": suffix, "support": support, "modules": modules}
    (built / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return built


def _install(built: Path, output: Path) -> None:
    """Put the compiled set at ``output`` whole or not at all: copied beside it, then renamed.

    An install interrupted mid-copy (Ctrl-C, a full disk) leaves only the copy, which is
    never read; a copy that fails is a build without compiled modules, not a failed one.
    """
    staging = output.with_name(output.name + ".new")
    try:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(built, staging)
        os.replace(staging, output)  # the older set was removed when the build began
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        _skip(f"the compiled modules could not be put in place ({exc})")


def _write_bytecode(package: Path) -> None:
    """Byte-compile the checkout's modules, as pip does for a package it installs.

    An editable install leaves the sources in the checkout, and pip compiles none of them.
    Where Python writes no bytecode itself (``PYTHONDONTWRITEBYTECODE``), every start then
    compiles each module it imports, about a seventh of the start-up of a one-page
    ``quietedit extract``. Bytecode records its source's size and time (or, with
    ``SOURCE_DATE_EPOCH`` set, its hash), so an edited module's is passed over, never run.
    A checkout that cannot be written at install time gets none; that costs only speed.
    """
    import compileall

    try:
        problem = "" if compileall.compile_dir(package, quiet=2, workers=1) else "some failed"
    except OSError as exc:
        problem = str(exc)
    if problem:
        print(f"quietedit: modules not byte-compiled ({problem})", file=sys.stderr)  # noqa: T201


def _skip(reason: str) -> None:
    # A build hook has no logger configured; stderr is what pip shows.
    print(f"quietedit: building without compiled modules: {reason}", file=sys.stderr)  # noqa: T201
