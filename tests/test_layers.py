"""The architecture holds: the pure core does no I/O and imports flow one way, shell -> core."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "quietedit"

# The functional core: data in, data out. Later stages add their pure modules here.
CORE = [
    "model.py",
    "revisions.py",
    "errors.py",
    "article",
    "analysis",
    "archive/records.py",
    "archive/encoder.py",
    "archive/layout.py",
    "config/feeds.py",
    "config/settings.py",
    "config/values.py",
    "ingest/policy.py",
    "ingest/versioning.py",
    "ingest/candidates.py",
    "ingest/changes.py",
    "ingest/dates.py",
    "ingest/discovery.py",
    "ingest/entries.py",
    "ingest/feeds.py",
    "ingest/feeds_json.py",
    "ingest/fields.py",
    "ingest/sitemaps.py",
    "ingest/pages.py",
    "ingest/profiles.py",
    "ingest/shard.py",
    "ingest/xmlprep.py",
    "fetch/addresses.py",
    "fetch/cache.py",
    "fetch/decoding.py",
    "fetch/document.py",
    "fetch/failures.py",
    "fetch/headers.py",
    "fetch/kinds.py",
    "fetch/ledger.py",
    "fetch/retry.py",
    "fetch/robots.py",
    "publish/pages.py",
    "publish/diffview.py",
    "publish/text.py",
    "publish/listing.py",
    "publish/charts.py",
]
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
SHELL_MODULES = {
    "quietedit.archive.store", "quietedit.archive.verify", "quietedit.archive.audit",
    "quietedit.config", "quietedit.ingest.run", "quietedit.ingest.register",
    "quietedit.ingest.ledgers", "quietedit.demo",
}  # fmt: skip
SHELL_PACKAGES = ("quietedit.cli", "quietedit.fetch", "quietedit.publish")


def is_shell(module: str) -> bool:
    return module in SHELL_MODULES or any(
        module == package or module.startswith(package + ".") for package in SHELL_PACKAGES
    )


def is_core(module: str) -> bool:
    """Whether ``module`` is itself one of the pure modules above (a shell package may hold
    some: ``quietedit.publish.pages``)."""
    return module.removeprefix("quietedit.").replace(".", "/") + ".py" in CORE


def core_files() -> list[Path]:
    files = []
    for entry in CORE:
        path = PACKAGE / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def imported_modules(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_imports_no_io_library_and_no_shell_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name in imported_modules(tree):
        top = name.split(".")[0]
        assert name not in FORBIDDEN_IMPORTS and top not in FORBIDDEN_IMPORTS, name
        assert not is_shell(name) or is_core(name), f"core imports the shell module {name}"


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
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
