"""How much the git repository grows per stored revision.

Builds a throwaway git repository, stores DOCS articles with REVISIONS revisions each
through the Archive API (a realistic ~900-word article, each revision a small real edit),
commits after every round as the scheduled job does, packs with ``git gc``, and prints
the packed size per revision. Plain text is what makes this small: git delta-compresses
successive revisions of the same file. Raw pages (~70 KB of HTML around the text) are
kept outside git as gzip-per-record WARC files; their gzip size per revision is printed
beside it.

    python bench/archive_growth.py [--docs 20] [--revisions 5]
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import Article, Block
from quietedit.revisions import Observation

WORDS = [
    "council",
    "budget",
    "minister",
    "said",
    "on",
    "Monday",
    "the",
    "report",
    "water",
    "housing",
    "police",
    "court",
    "election",
    "vote",
    "percent",
    "million",
    "euros",
    "people",
    "city",
    "region",
    "government",
    "spokesperson",
    "officials",
    "according",
    "to",
    "statement",
    "after",
    "before",
    "during",
    "week",
    "year",
    "hospital",
    "school",
    "investigation",
    "agreement",
    "opposition",
    "leader",
    "protest",
    "market",
    "prices",
    "energy",
    "climate",
]


def paragraph(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(25, 45))]
    words[rng.randrange(len(words))] = str(rng.randint(2, 9000))
    return " ".join(words).capitalize() + "."


CORPUS = Path(__file__).resolve().parents[2] / "shared/corpus/extraction/wcxb-dev-articles/html"


def real_pages() -> list[bytes]:
    """Real news pages (their markup, scripts and furniture) when the corpus is here."""
    if not CORPUS.is_dir():
        return []
    return [gzip.decompress(p.read_bytes()) for p in sorted(CORPUS.glob("*.html.gz"))[:50]]


def page(title: str, blocks: list[str], rng: random.Random, shell: bytes | None) -> bytes:
    """The raw page of one fetch: the article inside a real page's markup when there is
    one, with per-fetch noise (ad ids, nonces, related links) as real pages have."""
    noise = "".join(
        f'<li><a href="/story/{rng.getrandbits(40):x}">Related {rng.getrandbits(32):x}</a>'
        f'<div data-ad="{rng.getrandbits(64):016x}"></div></li>'
        for _ in range(40)
    )
    body = "".join(f"<p>{text}</p>" for text in blocks)
    article = f"<article><h1>{title}</h1>{body}</article><ul>{noise}</ul>".encode()
    if shell is None:
        furniture = "".join(f"<p>Imprint line {i} of Example News.</p>" for i in range(300))
        shell = f"<html><body><nav></nav>{furniture}</body></html>".encode()
    return shell.replace(b"<body", article + b"<body", 1) if b"<body" in shell else article


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org", *args],
        cwd=repo, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip


def packed_size(repo: Path) -> int:
    git(repo, "gc", "-q", "--prune=now")
    return sum(p.stat().st_size for p in (repo / ".git" / "objects").rglob("*") if p.is_file())


def run(docs: int, revisions: int) -> tuple[int, int, int]:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        git(repo, "init", "-q")
        archive = Archive(repo / "data")
        texts = {}
        raw_gzip = 0
        shells = real_pages()
        start = datetime(2026, 11, 30, 6, tzinfo=UTC)
        for round_ in range(revisions):
            for n in range(docs):
                url = f"https://news.example.org/2026/11/30/story-{n}"
                doc = document_id(url)
                if round_ == 0:
                    archive.write_document(
                        doc, {"url": url, "discovered_at": "2026-11-30T06:00:00Z"}
                    )
                    texts[doc] = [paragraph(rng) for _ in range(25)]
                else:  # a real edit: a changed paragraph, sometimes an added one
                    blocks = texts[doc]
                    blocks[rng.randrange(len(blocks))] = paragraph(rng)
                    if rng.random() < 0.3:
                        blocks.insert(rng.randrange(len(blocks)), paragraph(rng))
                title = f"Story {n}: council approves budget (rev {round_ + 1})"
                raw = page(title, texts[doc], rng, shells[n % len(shells)] if shells else None)
                raw_gzip += len(gzip.compress(raw, mtime=0))
                archive.append_revision(
                    doc,
                    Observation(
                        url=url,
                        observed_at=start + timedelta(hours=round_),
                        article=Article(title, tuple(Block(t) for t in texts[doc])),
                        extractor="bench",
                    ),
                )
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", f"round {round_}")
        return packed_size(repo), docs * revisions, raw_gzip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument("--revisions", type=int, default=5)
    args = parser.parse_args()
    pages = "real corpus pages" if real_pages() else "synthetic pages (corpus absent)"
    print(f"{args.docs} documents x {args.revisions} revisions, committed per round, git gc;")
    print(f"evidence: {pages} with per-fetch noise, kept outside git")
    size, count, raw = run(args.docs, args.revisions)
    for label, total, what in (
        ("git (text only)", size, "packed"),
        ("evidence (gzip, no git)", raw, "gzip  "),
    ):
        per = total / count / 1024
        print(f"{label:26} {total / 1024:9.1f} KiB {what}   {per:6.1f} KiB/revision")


if __name__ == "__main__":
    main()
