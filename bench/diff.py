"""How fast the diff and the classification are, typical and worst cases.

Run: .venv/bin/python bench/diff.py

Prints the median time of ``diff_revisions`` and of ``classify_change`` for

* a 2,000-word article (our own prose, generated) against an edited revision: a number
  changed, a sentence reworded, a paragraph moved, one added, one removed, one split,
  a typo fixed, a quote changed (the target: diff under 5 ms median);
* the same article with every paragraph edited;
* real article texts (the WCXB gold paragraphs in ../shared/corpus, when present) with
  the same edits;
* the worst cases the cut-offs exist for: 10,000 blocks all changed, 5,000 repeated
  identical blocks reshuffled, one 20,000-word paragraph rewritten throughout,

and which cut-offs each run hit.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from quietedit.analysis import classify_change, diff_revisions
from quietedit.model import Article, Block

CORPUS = Path(__file__).resolve().parents[1].parent / "shared/corpus/extraction/wcxb-dev-articles"

SENTENCES = (
    "The regional council voted {n} to {m} on {day} to approve the new transport plan.",
    "Officials said the first trams would run on the eastern line by {month}.",
    "{name}, who chairs the finance committee, said the cost had risen to {n}.{m} million euros.",
    "Residents of the harbour district have complained about noise from the works for months.",
    "“We have listened to every objection,” {name} told reporters outside the town hall.",
    "The opposition called the vote rushed and said it would ask the auditor to review it.",
    "Police closed two streets near the station for several hours on {day} evening.",
    "The plan includes {n} new stops, a bridge over the river and a depot in the north.",
    "Critics argue that buses would have served the outer villages better at half the price.",
    "A spokesperson for the operator said tickets would cost the same as on the buses.",
    "The project is funded in part by a national grant awarded in {month} last year.",
    "Shops along the main street reported a fall in customers while the road was closed.",
    "Engineers found old cellars under the square, which delayed the works by {n} weeks.",
    "{name} said the council would publish the full contract on its website next week.",
    "The union representing drivers said it had not been consulted about the timetable.",
    "Several cycling groups welcomed the plan but asked for protected lanes on the bridge.",
)
NAMES = ("Maria Okafor", "Jonas Berg", "Lea Fontaine", "Samir Haddad", "Ines Duarte")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MONTHS = ("March", "June", "September", "November")


def article(words: int, *, seed: int = 7) -> Article:
    """A news story of about ``words`` words in paragraphs of two to four sentences."""
    rng = random.Random(seed)
    blocks: list[Block] = []
    total = 0
    while total < words:
        text = " ".join(
            rng.choice(SENTENCES).format(
                n=rng.randint(2, 90),
                m=rng.randint(1, 9),
                day=rng.choice(DAYS),
                month=rng.choice(MONTHS),
                name=rng.choice(NAMES),
            )
            for _ in range(rng.randint(2, 4))
        )
        blocks.append(Block(text))
        total += len(text.split())
    return Article("Council approves tram plan after long debate", tuple(blocks))


def edited(story: Article) -> Article:
    """The story after a day of edits, one of each common kind."""
    texts = [b.text for b in story.blocks]
    count = len(texts)
    texts[0] = texts[0].replace("voted", "narrowly voted", 1).replace("1", "2", 1)
    texts[count // 6] = texts[count // 6].replace(" said ", " told reporters ", 1)
    texts[count // 5] = texts[count // 5].replace("“", '"').replace("”", '"')
    texts[count // 4] = texts[count // 4].replace("the", "teh", 1)
    moved = texts.pop(count // 3)
    texts.insert(2 * count // 3, moved)
    del texts[count // 2]
    texts.insert(count // 2 + 3, "The council will meet again in December to vote on fares.")
    sentences = texts[3 * count // 4].split(". ", 1)
    if len(sentences) == 2:
        texts[3 * count // 4 : 3 * count // 4 + 1] = [sentences[0] + ".", sentences[1]]
    return Article(story.title + " in the north", tuple(Block(t) for t in texts))


def every_paragraph_edited(story: Article) -> Article:
    return Article(
        story.title, tuple(Block(b.text.replace(" the ", " a ", 1)) for b in story.blocks)
    )


def median_ms(run: Callable[[], object], *, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def report(name: str, old: Article, new: Article, *, repeat: int, classify: bool = True) -> None:
    words = sum(len(b.text.split()) for b in old.blocks)
    diff_ms = median_ms(lambda: diff_revisions(old, new), repeat=repeat)
    summary = diff_revisions(old, new).summary
    line = f"{name:<44} {len(old.blocks):>6} blocks {words:>7} words  diff {diff_ms:9.2f} ms"
    if classify:
        line += f"  classify {median_ms(lambda: classify_change(old, new), repeat=repeat):9.2f} ms"
    if summary.cutoffs:
        line += f"  cut-offs: {', '.join(summary.cutoffs)}"
    print(line, flush=True)


def corpus_articles(limit: int) -> list[Article]:
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    found = []
    for key in sorted(truth):
        paragraphs = truth[key].get("paragraphs")
        if isinstance(paragraphs, str):
            paragraphs = json.loads(paragraphs)
        if paragraphs and len(paragraphs) >= 12:
            found.append(Article(truth[key]["title"], tuple(Block(p) for p in paragraphs)))
        if len(found) == limit:
            break
    return found


def main() -> None:
    story = article(2000)
    print(f"Python {sys.version.split()[0]}; medians of repeated runs\n")
    report("2,000 words, a day of edits", story, edited(story), repeat=300)
    report("2,000 words, every paragraph edited", story, every_paragraph_edited(story), repeat=100)
    report("2,000 words, no change", story, story, repeat=300)
    long_story = article(10_000, seed=3)
    report("10,000 words, a day of edits", long_story, edited(long_story), repeat=50)
    if CORPUS.is_dir():
        real = corpus_articles(100)
        times = [median_ms(partial(diff_revisions, a, edited(a)), repeat=5) for a in real]
        words = statistics.median(sum(len(b.text.split()) for b in a.blocks) for a in real)
        print(
            f"{'WCXB gold texts, a day of edits':<44} {len(real):>6} articles, median {words:.0f} "
            f"words: diff median {statistics.median(times):.2f} ms, max {max(times):.2f} ms"
        )
    else:
        print(f"(corpus not found at {CORPUS}: real-article run skipped)")
    print("\nworst cases (bounded by the cut-offs)")
    many = article(400_000, seed=11)
    many = Article(many.title, many.blocks[:10_000])
    report("10,000 blocks, each slightly edited", many, every_paragraph_edited(many), repeat=1)
    other = article(400_000, seed=12)
    rewritten = Article(other.title, other.blocks[: len(many.blocks)])
    report("10,000 blocks, all rewritten", many, rewritten, repeat=1)
    rng = random.Random(5)
    repeated = Article(
        "t", tuple(Block(rng.choice(("Advertisement", "Read more"))) for _ in range(5000))
    )
    shuffled = list(repeated.blocks)
    rng.shuffle(shuffled)
    report("5,000 repeated blocks, shuffled", repeated, Article("t", tuple(shuffled)), repeat=3)
    huge = " ".join(b.text for b in article(20_000, seed=13).blocks)
    reworded = huge.replace(" the ", " a ").replace(" said ", " stated ")
    report(
        "one 20,000-word paragraph rewritten",
        Article("t", (Block(huge),)),
        Article("t", (Block(reworded),)),
        repeat=3,
    )


if __name__ == "__main__":
    main()
