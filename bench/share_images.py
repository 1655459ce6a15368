"""Bytes and CPU time of the share images (``quietedit/publish/share.py``).

Draws ``--cards`` synthetic cards (headlines, old headlines and excerpts of the lengths
news edits have, the five verdicts) and prints the mean PNG size, and the mean CPU time
to draw a card and to encode it (palette mapping and zlib), for each zlib level asked.

    python bench/share_images.py                   # 60 cards, levels 6 and 9
    python bench/share_images.py --levels 1,6,9
"""

from __future__ import annotations

import argparse
import random
import time
from unittest import mock

from quietedit.publish import share
from quietedit.publish.share import ShareCard

WORDS = [
    "council",
    "budget",
    "housing",
    "minister",
    "police",
    "bank",
    "union",
    "government",
    "prosecutors",
    "club",
    "researchers",
    "residents",
    "approved",
    "rejected",
    "announced",
    "criticised",
    "postponed",
    "defended",
    "million",
    "euros",
    "percent",
    "after",
    "a",
    "long",
    "debate",
    "on",
    "Tuesday",
    "evening",
    "the",
    "regional",
    "plan",
    "would",
    "cost",
    "take",
    "three",
    "years",
    "to",
    "complete",
    "according",
    "to",
    "statement",
    "released",
    "by",
    "officials",
]
VERDICTS = ("silent", "noted", "technical notice", "acknowledged", "not judged")


def phrase(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def card(rng: random.Random, n: int) -> ShareCard:
    excerpt = (
        ("=", "… " + phrase(rng, 4, 12) + " "),
        ("-", phrase(rng, 1, 4) + " "),
        ("+", phrase(rng, 1, 9) + " "),
        ("=", phrase(rng, 4, 14) + " …"),
    )
    return ShareCard(
        outlet=rng.choice(("The Daily Courier", "Herald: Politics", "Wire")),
        headline=phrase(rng, 6, 14).capitalize(),
        old_headline=phrase(rng, 6, 12).capitalize() if n % 4 == 0 else "",
        excerpt=excerpt,
        kinds=tuple(rng.sample(("facts", "added", "removed", "style", "headline"), 2)),
        verdict=VERDICTS[n % len(VERDICTS)],
        observed="2026-12-02",
        site="quietedit",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=60)
    parser.add_argument("--levels", default="6,9", help="zlib levels to compare")
    args = parser.parse_args()
    rng = random.Random(17)
    cards = [card(rng, n) for n in range(args.cards)]
    started = time.process_time()
    images = [share.draw_card(c) for c in cards]
    draw_ms = (time.process_time() - started) / len(cards) * 1000
    print(f"{len(cards)} cards: drawing {draw_ms:.1f} ms of CPU each")
    for level in (int(x) for x in args.levels.split(",")):
        with mock.patch.object(share, "COMPRESS_LEVEL", level):
            started = time.process_time()
            sizes = [len(share.encode(image)) for image in images]
            encode_ms = (time.process_time() - started) / len(cards) * 1000
        print(
            f"zlib level {level}: {sum(sizes) / len(sizes) / 1000:.1f} KB an image "
            f"(smallest {min(sizes) / 1000:.1f}, largest {max(sizes) / 1000:.1f}), "
            f"encoding {encode_ms:.1f} ms of CPU each"
        )


if __name__ == "__main__":
    main()
