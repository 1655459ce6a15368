"""Compiled hot modules: used only while they match their sources, with the same output."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zlib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from quietedit.native import COMPILED, OFF_SWITCH, activate, compiled_files
from tests.article.conftest import ROOT, corpus, corpus_page

SUFFIX = EXTENSION_SUFFIXES[0]
SOURCE = "pkg/article/walk.py"


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A package with one source, and a compiled set made from it (files stand in)."""
    package = tmp_path / "site" / "pkg"
    source = package / "article" / "walk.py"
    source.parent.mkdir(parents=True)
    source.write_text("def walk() -> int:\n    return 1\n", encoding="utf-8")
    folder = package / "_compiled"
    (folder / "pkg" / "article").mkdir(parents=True)
    (folder / "pkg" / "article" / f"walk{SUFFIX}").write_bytes(b"\x7fELF")
    (folder / f"abc__mypyc{SUFFIX}").write_bytes(b"\x7fELF")
    data = source.read_bytes()
    manifest = {
        "suffix": SUFFIX,
        "support": {"name": "abc__mypyc", "file": f"abc__mypyc{SUFFIX}", "bytes": 4},
        "modules": {
            "pkg.article.walk": {
                "source": SOURCE,
                "size": len(data),
                "crc32": zlib.crc32(data),
                "file": f"pkg/article/walk{SUFFIX}",
                "bytes": 4,
            }
        },
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder, package


def test_a_set_that_matches_its_sources_is_found(built: tuple[Path, Path]) -> None:
    folder, package = built
    assert compiled_files(folder, package=package) == {
        "abc__mypyc": str(folder / f"abc__mypyc{SUFFIX}"),
        "pkg.article.walk": str(folder / "pkg" / "article" / f"walk{SUFFIX}"),
    }


def test_an_edited_source_turns_the_whole_set_off(built: tuple[Path, Path]) -> None:
    folder, package = built
    source = package / "article" / "walk.py"
    source.write_text("def walk() -> int:\n    return 2\n", encoding="utf-8")  # same size
    assert compiled_files(folder, package=package) == {}


@pytest.mark.parametrize(
    "damage",
    [
        lambda manifest: manifest.update(suffix=".cpython-27-sparc.so"),  # another Python
        lambda manifest: manifest.pop("support"),
        lambda manifest: manifest["modules"]["pkg.article.walk"].update(file="gone" + SUFFIX),
        lambda manifest: manifest["modules"]["pkg.article.walk"].update(source="pkg/gone.py"),
        lambda manifest: manifest["modules"]["pkg.article.walk"].update(crc32="x"),
        lambda manifest: manifest.update(modules=[]),
        lambda manifest: manifest["modules"]["pkg.article.walk"].update(file="x" * 5000 + SUFFIX),
        lambda manifest: manifest["support"].pop("bytes"),
    ],
    ids=[
        "other-python",
        "no-support",
        "missing-file",
        "missing-source",
        "bad-crc",
        "bad-shape",
        "name-too-long",
        "no-size",
    ],
)
def test_anything_amiss_in_the_manifest_means_plain_python(
    built: tuple[Path, Path], damage: object
) -> None:
    folder, package = built
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    damage(manifest)  # type: ignore[operator]
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert compiled_files(folder, package=package) == {}


@pytest.mark.parametrize("part", ["pkg/article/walk", "abc__mypyc"])
def test_a_compiled_file_cut_short_means_plain_python(built: tuple[Path, Path], part: str) -> None:
    # An install interrupted while copying: loading the stub would crash the process.
    folder, package = built
    (folder / f"{part}{SUFFIX}").write_bytes(b"\x7f")
    assert compiled_files(folder, package=package) == {}


def test_a_damaged_or_missing_manifest_means_plain_python(built: tuple[Path, Path]) -> None:
    folder, package = built
    (folder / "manifest.json").write_bytes(b'{"suffix": ')
    assert compiled_files(folder, package=package) == {}
    (folder / "manifest.json").unlink()
    assert compiled_files(folder, package=package) == {}


def test_the_off_switch_keeps_even_a_good_set_out(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, package = built
    monkeypatch.setenv(OFF_SWITCH, "1")
    before = list(sys.meta_path)
    assert activate(folder, package=package) is False
    assert sys.meta_path == before


# --- the set this checkout's install built, if it built one ------------------------------

needs_build = pytest.mark.skipif(
    not compiled_files(COMPILED),
    reason="this install has no compiled modules (no C compiler, or sources edited since)",
)
PROBE = (
    "import json, sys\n"
    "import quietedit.article.blocks as blocks\n"
    "from quietedit.native import active_modules\n"
    "print(json.dumps([blocks.__file__, list(active_modules())]))\n"
)


def run(*args: str, pure: bool) -> subprocess.CompletedProcess[bytes]:
    env = {key: value for key, value in os.environ.items() if key != OFF_SWITCH}
    if pure:
        env[OFF_SWITCH] = "1"
    return subprocess.run(
        [sys.executable, *args], capture_output=True, cwd=ROOT, env=env, check=True, timeout=300
    )


@needs_build
def test_the_compiled_modules_load_unless_switched_off() -> None:
    compiled_file, active = json.loads(run("-c", PROBE, pure=False).stdout)
    assert compiled_file.endswith(SUFFIX)
    assert "quietedit.article.blocks" in active and "quietedit.article.extract" in active
    plain_file, none = json.loads(run("-c", PROBE, pure=True).stdout)
    assert plain_file.endswith("blocks.py")
    assert none == []


@needs_build
def test_an_editable_install_leaves_bytecode_of_the_plain_modules() -> None:
    # Where Python writes none itself (PYTHONDONTWRITEBYTECODE), every start would compile
    # each module it imports again.
    for module in ("quietedit/cli/__init__.py", "quietedit/model.py", "quietedit/errors.py"):
        assert Path(importlib.util.cache_from_source(str(ROOT / module))).is_file()


HOSTILE = {
    "deep.html": b"<html><body>" + b"<div><p>deep " * 3000 + b"</body></html>",
    "junk.html": bytes(range(256)) * 64,
    "classes.html": (
        b"<body><article class='" + b"x" * 100_000 + b" content'>"
        b"<p id='post-1' class='js-share hidden md:block'>Shown on wide screens.</p>"
        b"<span class='sr-only'>hidden</span><p>Body \xe2\x80\x94 text.</p></article></body>"
    ),
    "empty.html": b"",
    "utf16.html": "<p>Zw\u00f6lf Boxk\u00e4mpfer</p>".encode("utf-16"),
    "surrogates.html": (
        b'<script type=\'application/ld+json\'>{"headline": "\\ud800 x"}</script>'
        b"<p>&#xD800; &#0; &#x110000; text</p>"
    ),
}


@pytest.fixture
def pages(tmp_path: Path) -> list[str]:
    """Our fixture pages, and hostile ones: deep nesting, binary junk, huge classes."""
    for name, body in HOSTILE.items():
        (tmp_path / name).write_bytes(body)
    found = sorted((ROOT / "tests" / "fixtures").rglob("*.html")) + sorted(tmp_path.iterdir())
    return [str(page) for page in found]


def same_output(script: tuple[str, ...], pages: list[str]) -> bytes:
    compiled = run(*script, *pages, pure=False).stdout
    assert compiled == run(*script, *pages, pure=True).stdout
    assert compiled.count(b"\n") >= len(pages)
    return compiled


EXTRACT = ("-m", "quietedit", "extract", "--json")


@needs_build
def test_compiled_and_plain_extraction_print_the_same_bytes(pages: list[str]) -> None:
    same_output(EXTRACT, pages)


FINGERPRINTS = (
    "import json, sys\n"
    "from pathlib import Path\n"
    "from quietedit.article.extract import extract_article\n"
    "from quietedit.article.fingerprint import content_hash, fold_text\n"
    "for page in sys.argv[1:]:\n"
    "    article = extract_article(Path(page).read_bytes())\n"
    "    print(content_hash(article), json.dumps(fold_text(article.title)))\n"
)


@needs_build
def test_compiled_and_plain_content_hashes_agree(pages: list[str]) -> None:
    same_output(("-c", FINGERPRINTS), pages)


@needs_build
@pytest.mark.parametrize("name", ["wcxb-dev-articles", "readability-testpages"])
def test_compiled_and_plain_agree_on_the_real_world_corpora(name: str, tmp_path: Path) -> None:
    truth, folder = corpus(name)
    pages = []
    for key in sorted(truth):
        page = tmp_path / f"{key}.html"
        page.write_bytes(corpus_page(folder, truth[key]))
        pages.append(str(page))
    same_output(EXTRACT, pages)
    same_output(("-c", FINGERPRINTS), pages)
