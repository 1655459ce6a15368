"""The architecture holds: the pure core does no I/O and imports flow one way, shell -> core."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "quietedit"

# The functional core: data in, data out. Whole packages are pure; a shell package may hold
# pure modules too, and says so in the first paragraph of their docstring: "(pure".
PURE_PACKAGES = ("feeds", "article", "decide", "analysis")
PURE_MARK = "(pure"


def marked_pure(path: Path) -> bool:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return PURE_MARK in doc.split("\n\n")[0]


# Libraries and modules that mean I/O, a clock, randomness or the shell's tools.
FORBIDDEN_IMPORTS = {
    "asyncio", "click", "httpx", "jinja2", "os", "random", "requests", "secrets", "shutil",
    "socket", "subprocess", "sys", "tempfile", "time", "urllib.request", "yaml",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "now", "utcnow", "today", "getenv", "time"}
FORBIDDEN_METHODS = {
    "read_text", "read_bytes", "write_text", "write_bytes", "open", "mkdir",
    "unlink", "exists", "is_file", "is_dir", "iterdir", "glob", "rglob",
}  # fmt: skip


def core_files() -> list[Path]:
    """Every module of the pure packages, and every module elsewhere marked pure."""
    files = [path for name in PURE_PACKAGES for path in sorted((PACKAGE / name).rglob("*.py"))]
    pure_packages = {PACKAGE / name for name in PURE_PACKAGES}
    files += [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if not pure_packages & set(path.parents) and marked_pure(path)
    ]
    return files


CORE_FILES = core_files()


def is_core(module: str) -> bool:
    """Whether ``module`` is itself one of the pure modules (a shell package may hold some:
    ``quietedit.publish.pages``)."""
    relative = module.removeprefix("quietedit.").replace(".", "/")
    candidates = {PACKAGE / f"{relative}.py", PACKAGE / relative / "__init__.py"}
    return bool(candidates & set(CORE_FILES))


def imported_modules(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_imports_no_io_library_and_no_shell_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name in imported_modules(tree):
        top = name.split(".")[0]
        assert name not in FORBIDDEN_IMPORTS and top not in FORBIDDEN_IMPORTS, name
        if top == "quietedit":
            assert is_core(name), f"core imports the shell module {name}"


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_calls_no_io_or_clock(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"line {node.lineno}: {node.func.id}()"
        elif isinstance(node.func, ast.Attribute):
            name = node.func.attr
            assert name not in FORBIDDEN_CALLS | FORBIDDEN_METHODS, f"line {node.lineno}: .{name}()"


def test_the_core_is_the_pure_packages_and_the_marked_modules() -> None:
    names = {path.relative_to(PACKAGE).as_posix() for path in CORE_FILES}
    assert {"feeds/parse.py", "decide/recheck.py", "article/extract.py", "model.py"} <= names
    assert "publish/pages.py" in names  # marked pure inside a shell package
    assert not {"ingest/run.py", "archive/store.py", "fetch/client.py"} & names


def test_the_guard_sees_a_violation() -> None:
    """The checks above would fail on a module that reads a file or the clock."""
    bad = ast.parse("import os\nfrom datetime import datetime\nx = datetime.now()\nopen('f')")
    assert "os" in imported_modules(bad)
    calls = [n for n in ast.walk(bad) if isinstance(n, ast.Call)]
    assert {getattr(c.func, "attr", getattr(c.func, "id", "")) for c in calls} == {"now", "open"}


def test_no_module_imports_the_cli() -> None:
    for path in PACKAGE.rglob("*.py"):
        if path.parent.name == "cli" or path.name == "__main__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not any(m.startswith("quietedit.cli") for m in imported_modules(tree)), path


def root_imports(tree: ast.AST) -> list[int]:
    """Lines that import the package root (``from quietedit import x``, ``import quietedit``)."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "quietedit")
        or (isinstance(node, ast.Import) and any(a.name == "quietedit" for a in node.names))
    ]


def test_no_module_inside_the_package_imports_the_package_root() -> None:
    """Imports flow down from the root: the root's lazy exports import the modules, never
    the other way round (the version is quietedit.version)."""
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE).as_posix()
        if name == "__init__.py":
            continue
        lines = root_imports(ast.parse(path.read_text(encoding="utf-8")))
        assert not lines, f"{name}: line {lines[0]} imports the package root"


def test_the_root_import_guard_sees_only_root_imports() -> None:
    bad = ast.parse("from quietedit import __version__\nimport quietedit\n")
    good = ast.parse("import quietedit.analysis\nfrom quietedit.version import __version__\n")
    assert root_imports(bad) == [1, 2]
    assert root_imports(good) == []


SHELL_LIBRARIES = ("httpx", "httpcore", "anyio", "yaml", "jinja2", "click", "sqlite3")


def test_importing_the_whole_core_loads_no_shell_module_and_no_io_library() -> None:
    """The checks above read each module alone; this one imports them all in a fresh
    interpreter, so a package ``__init__`` that drags the shell in is caught too."""
    modules = sorted(
        "quietedit." + path.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", ".")
        for path in CORE_FILES
    )
    names = [name.removesuffix(".__init__") for name in modules]
    probe = (
        "import importlib, json, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    )
    loaded = set(json.loads(done.stdout))
    # a package is loaded before its modules; its __init__ must load nothing else
    parents = {name.rsplit(".", i)[0] for name in names for i in range(1, name.count(".") + 1)}
    shell = {m for m in loaded if m.startswith("quietedit") and m not in {*names, *parents}}
    assert shell == set(), f"the core loads shell modules: {sorted(shell)}"
    libraries = {m for m in loaded if m.split(".")[0] in SHELL_LIBRARIES}
    assert libraries == set(), f"the core loads {sorted(libraries)}"
