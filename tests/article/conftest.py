"""Shared helpers for the extraction tests: fixture pages, and the corpus when it is there.

The real-world corpus (``../shared/corpus`` next to the project) is third-party data that a
user's clone does not have; every test that reads it skips cleanly without it.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "fixtures" / "pages"
CORPUS = ROOT.parent / "shared" / "corpus" / "extraction"


def fixture_page(name: str) -> bytes:
    """The bytes of one of our own fixture pages (``name`` relative to tests/fixtures/pages)."""
    return (PAGES / name).read_bytes()


def corpus(name: str) -> tuple[dict[str, Any], Path]:
    """The ground truth of a corpus folder and the folder; skips the test if it is absent."""
    folder = CORPUS / name
    truth = folder / "ground-truth.json"
    if not truth.is_file():
        pytest.skip(f"corpus {name} is not at {folder}")
    return json.loads(truth.read_text(encoding="utf-8")), folder


def corpus_page(folder: Path, record: dict[str, Any]) -> bytes:
    """The raw bytes of one corpus page."""
    return gzip.decompress((folder / record["html"]).read_bytes())
