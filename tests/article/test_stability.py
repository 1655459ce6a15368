"""Furniture-only changes never change the content hash; real edits always do.

A revision is stored when the content hash changes, so extraction must be blind to what
changes on every page view — related links, ad ids, share and comment counts, relative
times, consent banners — and see every real edit: one word, a paragraph added or removed.
Checked on our own fixture pages and on a fixed sample of corpus pages (skipped without
the corpus).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from quietedit.article.extract import extract_article
from quietedit.article.fingerprint import content_hash
from quietedit.model import Article
from tests.article.conftest import PAGES, corpus, corpus_page
from tests.article.perturb import FURNITURE_CHANGES, REAL_EDITS, serialize

OWN_PAGES = sorted(PAGES.glob("*.html"))
CORPUS_SAMPLE = 40  # pages, every n-th of the sorted ids, so the sample never changes
SEED = 20261130


def keep(article: Article, *extra: str) -> list[str]:
    """Snippets of text a furniture change must not touch."""
    snippets = [block.text[:40] for block in article.blocks]
    snippets += [text[:40] for text in extra if text]
    return [snippet for snippet in snippets if snippet] + [article.title[:40]]


@pytest.mark.parametrize("change", sorted(FURNITURE_CHANGES))
@pytest.mark.parametrize("page", OWN_PAGES, ids=lambda p: p.stem)
def test_a_furniture_change_keeps_the_content_hash(page: Path, change: str) -> None:
    doc = serialize(page.read_bytes())
    article = extract_article(doc)
    changed = FURNITURE_CHANGES[change](doc, keep(article), random.Random(SEED))
    assert content_hash(extract_article(changed)) == content_hash(article)


@pytest.mark.parametrize("page", OWN_PAGES, ids=lambda p: p.stem)
def test_all_furniture_changes_at_once_keep_the_content_hash(page: Path) -> None:
    doc = serialize(page.read_bytes())
    article = extract_article(doc)
    rng = random.Random(SEED)
    changed = doc
    for change in FURNITURE_CHANGES.values():
        changed = change(changed, keep(article), rng)
    assert changed != doc
    assert content_hash(extract_article(changed)) == content_hash(article)


def test_the_furniture_changes_do_change_our_fixture_pages() -> None:
    """Each kind of change finds something to change on at least one fixture page."""
    for name, change in FURNITURE_CHANGES.items():
        changed = 0
        for page in OWN_PAGES:
            doc = serialize(page.read_bytes())
            article = extract_article(doc)
            changed += change(doc, keep(article), random.Random(SEED)) != doc
        assert changed, f"{name} changed none of the fixture pages"


@pytest.mark.parametrize("edit", sorted(REAL_EDITS))
@pytest.mark.parametrize("page", OWN_PAGES, ids=lambda p: p.stem)
def test_a_real_edit_changes_the_content_hash(page: Path, edit: str) -> None:
    doc = serialize(page.read_bytes())
    article = extract_article(doc)
    edited = REAL_EDITS[edit](doc, [block.text for block in article.blocks])
    assert edited is not None, f"no body paragraph of {page.name} could be edited"
    assert content_hash(extract_article(edited)) != content_hash(article)


def corpus_sample() -> list[tuple[str, str, list[str]]]:
    """(id, serialised page, gold paragraphs) for the fixed corpus sample."""
    truth, folder = corpus("wcxb-dev-articles")
    ids = sorted(truth)
    step = max(1, len(ids) // CORPUS_SAMPLE)
    sample = []
    for key in ids[::step][:CORPUS_SAMPLE]:
        record = truth[key]
        sample.append((key, serialize(corpus_page(folder, record)), record["paragraphs"]))
    return sample


def test_furniture_changes_keep_the_hash_of_corpus_pages() -> None:
    unstable = []
    for key, doc, gold in corpus_sample():
        article = extract_article(doc)
        snippets = keep(article, *gold)
        for name, change in FURNITURE_CHANGES.items():
            changed = change(doc, snippets, random.Random(SEED))
            if content_hash(extract_article(changed)) != content_hash(article):
                unstable.append(f"{key}: {name}")
    assert unstable == []


def test_real_edits_change_the_hash_of_corpus_pages() -> None:
    missed, applied = [], 0
    sample = corpus_sample()
    for key, doc, _ in sample:
        article = extract_article(doc)
        texts = [block.text for block in article.blocks]
        for name, edit in REAL_EDITS.items():
            edited = edit(doc, texts)
            if edited is None:
                continue
            applied += 1
            if content_hash(extract_article(edited)) == content_hash(article):
                missed.append(f"{key}: {name}")
    assert missed == []
    assert applied >= 0.8 * len(REAL_EDITS) * len(sample)
