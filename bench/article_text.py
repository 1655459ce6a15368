"""Speed and precision of encoding resolution, canonical URLs and the content-hash masks.

Prints, for each part, throughput on real pages and what the rules did to them:

- encoding: pages/s and MB/s of ``resolve_encoding`` + ``decode`` over the corpus's raw
  article pages, which source decided, how many declarations lost and why; and a 1 MB
  synthetic page (the fetcher's size cap order of magnitude);
- canonical URLs: URLs/s over the link of every item of a news site's RSS history and of
  the real feeds; pages/s with the page's HTML; how often the page's rel=canonical/og:url
  was believed, and why not;
- masks: paragraphs/s of ``fingerprint_text`` over human-checked article text, how many
  paragraphs any mask touches (each is printed: a look for false positives), and how
  many real headline/teaser edits of a news site (SPIEGEL's RSS, 2022-2026) the masks
  would hide -- the number that must stay 0.

Uses ``../shared/corpus`` when present (never copied into the repository); without it
only the synthetic figures are printed.

    python bench/article_text.py [--corpus ../shared/corpus] [--limit 0]
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from quietedit.article.encoding import resolve_encoding
from quietedit.article.fingerprint import fingerprint_text, fold_text
from quietedit.article.identity import canonical_url, normalise_url
from quietedit.article.masks import MASKS
from quietedit.errors import InvalidURLError

ROOT = Path(__file__).resolve().parents[1]


def pages(corpus: Path, limit: int) -> Iterator[tuple[str | None, bytes]]:
    """(url, raw bytes) of every extraction-corpus page."""
    count = 0
    for name in ("wcxb-dev-articles", "readability-testpages"):
        folder = corpus / "extraction" / name
        if not folder.is_dir():
            continue
        truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
        for entry in truth.values():
            yield entry.get("url"), gzip.decompress((folder / entry["html"]).read_bytes())
            count += 1
            if limit and count >= limit:
                return


def gold_paragraphs(corpus: Path) -> list[str]:
    texts: list[str] = []
    for name in ("wcxb-dev-articles", "readability-testpages"):
        path = corpus / "extraction" / name / "ground-truth.json"
        if not path.is_file():
            continue
        for entry in json.loads(path.read_text(encoding="utf-8")).values():
            paragraphs = entry.get("paragraphs") or []
            if isinstance(paragraphs, str):
                paragraphs = json.loads(paragraphs)
            texts.extend([entry.get("title") or "", *paragraphs])
    return [text for text in texts if text]


def spiegel_items(corpus: Path) -> list[dict[str, object]]:
    path = corpus / "revisions" / "spiegel-rss-2022-2023" / "items.jsonl.gz"
    if not path.is_file():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def bench_encoding(corpus: Path, limit: int) -> None:
    print("== encoding: resolve_encoding + decode")
    bodies = list(pages(corpus, limit))
    if bodies:
        sources: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        size = sum(len(body) for _, body in bodies)
        start = time.perf_counter()
        for _, body in bodies:
            decision = resolve_encoding(body, "text/html")
            decision.decode(body)
            sources[f"{decision.source}:{decision.encoding}"] += 1
            reasons.update(f"{d.source}:{d.reason}" for d in decision.overruled)
        elapsed = time.perf_counter() - start
        print(
            f"  {len(bodies)} corpus pages, {size / 1e6:.1f} MB: {len(bodies) / elapsed:,.0f} "
            f"pages/s, {size / 1e6 / elapsed:,.1f} MB/s (no Content-Type charset given)"
        )
        print(f"  decided by: {dict(sources.most_common())}")
        print(f"  overruled: {dict(reasons.most_common()) or 'none'}")
    paragraph = (
        "<p>Der Stadtrat hat am Montag den Haushalt beschlossen \u2013 für 4,2 Mio. €.</p>\n"
    )
    big = ('<html><head><meta charset="utf-8"></head><body>' + paragraph * 12_000).encode()
    cp1252 = big.decode().encode("cp1252")
    for label, body, header in (
        ("1 MB UTF-8, declared", big, "text/html; charset=utf-8"),
        ("1 MB windows-1252 behind charset=utf-8", cp1252, "text/html; charset=utf-8"),
    ):
        runs = 20
        start = time.perf_counter()
        for _ in range(runs):
            resolve_encoding(body, header).decode(body)
        per = (time.perf_counter() - start) / runs
        print(f"  {label}: {per * 1000:.1f} ms per page ({len(body) / 1e6 / per:,.0f} MB/s)")


def bench_canonical(corpus: Path, limit: int) -> None:
    print("== canonical URLs")
    items = spiegel_items(corpus)
    urls = [str(state["link"]) for item in items for state in item["states"]]  # type: ignore[attr-defined]
    urls = list(dict.fromkeys(urls))[: limit or None]
    if urls:
        invalid = 0
        start = time.perf_counter()
        results = set()
        for url in urls:
            try:
                results.add(canonical_url(url))
            except InvalidURLError:
                invalid += 1
        elapsed = time.perf_counter() - start
        print(
            f"  {len(urls):,} distinct SPIEGEL item links -> {len(results):,} canonical URLs: "
            f"{len(urls) / elapsed:,.0f} URLs/s, {invalid} invalid"
        )
        unchanged = sum(normalise_url(url) == url for url in results)
        print(f"  canonical URLs that are fixed points: {unchanged:,} of {len(results):,}")
    with_url = [(url, body) for url, body in pages(corpus, limit) if url]
    if with_url:
        outcomes: Counter[str] = Counter()
        start = time.perf_counter()
        for url, body in with_url:
            html = resolve_encoding(body, "text/html").decode(body)
            try:
                own = normalise_url(url)
                chosen = canonical_url(url, html=html)
            except InvalidURLError:
                outcomes["invalid page URL"] += 1
                continue
            outcomes["page's claim believed" if chosen != own else "own URL kept"] += 1
        elapsed = time.perf_counter() - start
        print(
            f"  {len(with_url)} corpus pages with their URL and HTML: "
            f"{len(with_url) / elapsed:,.0f} pages/s (lexbor parse included): {dict(outcomes)}"
        )


def bench_masks(corpus: Path) -> None:
    print("== masks")
    texts = gold_paragraphs(corpus)
    if not texts:
        texts = ["Updated 5 minutes ago | 1,234 comments", "The council approved a budget."] * 5000
    folded = [fold_text(text) for text in texts]
    start = time.perf_counter()
    for text in texts:
        fingerprint_text(text)
    elapsed = time.perf_counter() - start
    chars = sum(len(text) for text in texts)
    print(
        f"  {len(texts):,} paragraphs ({chars / 1e6:.1f} M chars): {len(texts) / elapsed:,.0f} "
        f"paragraphs/s, {chars / 1e6 / elapsed:.1f} M chars/s"
    )
    touched: Counter[str] = Counter()
    for text in folded:
        for mask in MASKS:
            masked = mask.apply(text)
            if masked != text:
                touched[mask.name] += 1
                print(f"    {mask.name}: {text[:110]!r}")
    print(f"  paragraphs a mask touched: {dict(touched) or 'none'} of {len(texts):,}")
    items = spiegel_items(corpus)
    if not items:
        return
    edits = hidden = 0
    for item in items:
        states = item["states"]
        if not isinstance(states, list):
            continue
        for before, after in pairwise(states):
            for field in ("title", "description"):
                if fold_text(before[field] or "") == fold_text(after[field] or ""):
                    continue
                edits += 1
                if fingerprint_text(before[field] or "") == fingerprint_text(after[field] or ""):
                    hidden += 1
                    print(f"    hidden: {before[field]!r} -> {after[field]!r}")
    print(f"  real SPIEGEL title/teaser edits: {edits:,}; hidden by the masks: {hidden}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--limit", type=int, default=0, help="pages/URLs to use (0: all)")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus {args.corpus} not found: synthetic figures only")
    bench_encoding(args.corpus, args.limit)
    bench_canonical(args.corpus, args.limit)
    bench_masks(args.corpus)


if __name__ == "__main__":
    main()
