"""The labelled set of edits: what ``bench/classify.py`` scores the classification on.

Three sources, each pair with the kinds a person marked by reading it (the rules are in
``bench/labels/README.md``) and whether the publisher showed a sign of the edit:

* **SPIEGEL's RSS teaser edits** (``revisions/spiegel-rss-2022-2023`` in the shared
  corpus): a sample of consecutive states of an item whose title or teaser changed, each
  read as an article whose title is the RSS title and whose one paragraph is the teaser,
  in German. A changed ``pubDate`` is the feed's sign of the edit.
* **The BBC pairs** (``revisions/newssniffer-bbc``): the two saved pages of each article,
  extracted as the ingest would.
* **Our own edits** (``tests/fixtures/edits/*.yaml``): stories written for this set in the
  style of wire copy, with the edits the corpus lacks (credit lines, update and correction
  notes, names written shorter, words run together by a page, moves, live tickers).

The corpus is third-party text and is never copied into the repository: the labels
(``bench/labels/corpus-edits.tsv``) name each pair by an identifier only, and
:func:`corpus_pairs` rebuilds the pairs from the corpus path. Pure Python and YAML; the
corpus is read only when it is there.
"""

from __future__ import annotations

import csv
import gzip
import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import yaml

from quietedit.analysis import ExternalSignals
from quietedit.article.extract import extract_article
from quietedit.model import Article, Block, Publisher

ROOT: Final = Path(__file__).resolve().parents[2]
CORPUS: Final = ROOT.parent / "shared" / "corpus"
LABELS: Final = ROOT / "bench" / "labels" / "corpus-edits.tsv"
FIXTURES: Final = ROOT / "tests" / "fixtures" / "edits"

SPIEGEL: Final = "revisions/spiegel-rss-2022-2023/items.jsonl.gz"
BBC: Final = "revisions/newssniffer-bbc"
ADMITTED: Final = "admitted"
SILENT: Final = "silent"
UNCHANGED: Final = "unchanged"
VERDICTS: Final = (ADMITTED, SILENT, UNCHANGED)
"""A pair's verdict label: an edit the publisher signalled, one it did not, or no edit."""


@dataclass(frozen=True, slots=True)
class LabelledPair:
    """Two revisions, the kinds of the edit between them and its verdict, marked by hand."""

    id: str
    source: str  # "spiegel", "bbc" or "own"
    old: Article
    new: Article
    kinds: frozenset[str]
    verdict: str  # one of VERDICTS
    note: str = ""
    signals: ExternalSignals = field(default_factory=ExternalSignals)
    batch: str = ""  # the labels file's batch ("held-out": labelled after the rules were set)


@dataclass(frozen=True, slots=True)
class Label:
    kinds: frozenset[str]
    verdict: str
    note: str
    batch: str = ""


def read_labels(path: Path = LABELS) -> dict[str, Label]:
    """The corpus labels: ``id``, comma-separated ``kinds``, ``verdict``, ``note``; a line
    ``#batch NAME`` puts the labels after it in that batch."""
    labels = {}
    batch = ""
    with path.open(encoding="utf-8", newline="") as rows:
        for number, row in enumerate(csv.reader(rows, delimiter="\t"), 1):
            if row and row[0].startswith("#batch "):
                batch = row[0].removeprefix("#batch ").strip()
            if not row or row[0].startswith("#"):
                continue
            pair_id, kinds, verdict, *rest = row
            if verdict not in VERDICTS:
                raise ValueError(
                    f"{path.name}:{number}: verdict {verdict!r} is not one of {VERDICTS}"
                )
            labels[pair_id] = Label(
                frozenset(k for k in kinds.split(",") if k),
                verdict,
                rest[0] if rest else "",
                batch,
            )
    return labels


def labelled_set(corpus: Path | None = CORPUS) -> list[LabelledPair]:
    """Every labelled pair: the corpus's (when ``corpus`` is there) and our own."""
    pairs = list(corpus_pairs(corpus)) if corpus is not None and corpus.is_dir() else []
    return pairs + list(own_pairs())


# -- the corpus ------------------------------------------------------------------------


def corpus_pairs(corpus: Path, labels: Mapping[str, Label] | None = None) -> Iterator[LabelledPair]:
    """The labelled pairs rebuilt from the corpus, in the order of the labels file."""
    wanted = dict(labels if labels is not None else read_labels())
    built: dict[str, LabelledPair] = {}
    spiegel = {key for key in wanted if key.startswith("spiegel/")}
    for pair in _spiegel_pairs(corpus / SPIEGEL, spiegel):
        built[pair.id] = pair
    for pair in _bbc_pairs(corpus / BBC, {key for key in wanted if key.startswith("bbc/")}):
        built[pair.id] = pair
    missing = sorted(set(wanted) - set(built))
    if missing:
        raise ValueError(f"{len(missing)} labelled pairs are not in {corpus}: {missing[:3]} …")
    for key, label in wanted.items():
        yield replace(
            built[key], kinds=label.kinds, verdict=label.verdict, note=label.note, batch=label.batch
        )


def spiegel_ids(path: Path) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(id, old state, new state)`` of every title or teaser edit in the RSS history.

    The id is ``spiegel/<the article's UUID>/<n>``, ``n`` counting the item's states from
    0: pair ``n`` is state ``n - 1`` to state ``n``.
    """
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            if not item["text_edited"]:
                continue
            uuid = item["guid"].rsplit("-a-", 1)[-1]
            for number, (old, new) in enumerate(itertools.pairwise(item["states"]), 1):
                if old["title"] != new["title"] or old["description"] != new["description"]:
                    yield f"spiegel/{uuid}/{number}", old, new


def _spiegel_pairs(path: Path, wanted: set[str]) -> Iterator[LabelledPair]:
    if not wanted:
        return
    german = Publisher(language="de")
    for pair_id, old, new in spiegel_ids(path):
        if pair_id not in wanted:
            continue
        yield LabelledPair(
            pair_id,
            "spiegel",
            Article(old["title"], (Block(old["description"]),), german),
            Article(new["title"], (Block(new["description"]),), german),
            frozenset(),
            SILENT,
            signals=ExternalSignals(feed_updated_changed=old["pubDate"] != new["pubDate"]),
        )


def _bbc_pairs(folder: Path, wanted: set[str]) -> Iterator[LabelledPair]:
    """``bbc/<article>/<label>-<label>``: two saved versions of one BBC page."""
    if not wanted:
        return
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    for article in index["articles"]:
        versions = article["versions"]
        for old, new in itertools.pairwise(versions):
            pair_id = f"bbc/{article['id']}/{old['label']}-{new['label']}"
            if pair_id not in wanted:
                continue
            yield LabelledPair(
                pair_id,
                "bbc",
                _page(folder / old["file"], article["url"]),
                _page(folder / new["file"], article["url"]),
                frozenset(),
                SILENT,
            )


def _page(path: Path, url: str) -> Article:
    return extract_article(gzip.decompress(path.read_bytes()), url=url)


# -- our own edits ---------------------------------------------------------------------


def own_pairs(folder: Path = FIXTURES) -> Iterator[LabelledPair]:
    """The pairs of every story in ``folder`` (``<story>.yaml``), in file order.

    A story file has ``old`` (``title``, ``paragraphs`` — a text, or ``{text, kind}`` —
    and the publisher's fields) and ``edits``, each with ``id``, ``kinds``, ``verdict``,
    an optional ``note``, and ``changes`` applied in order to the old revision to give the
    new one (see :func:`apply_change`).
    """
    for path in sorted(folder.glob("*.yaml")):
        story = yaml.safe_load(path.read_text(encoding="utf-8"))
        old = article_of(story["old"])
        for edit in story["edits"]:
            new, signals = old, ExternalSignals()
            for change in edit.get("changes", []):
                new, signals = apply_change(
                    new, signals, change, where=f"{path.name}: {edit['id']}"
                )
            verdict = edit["verdict"]
            if verdict not in VERDICTS:
                raise ValueError(f"{path.name}: {edit['id']}: verdict {verdict!r}")
            yield LabelledPair(
                f"own/{path.stem}/{edit['id']}",
                "own",
                old,
                new,
                frozenset(edit["kinds"]),
                verdict,
                edit.get("note", ""),
                signals,
            )


def article_of(record: Mapping[str, Any]) -> Article:
    blocks = tuple(_block(item) for item in record.get("paragraphs", []))
    fields = {k: v for k, v in record.items() if k not in ("title", "paragraphs")}
    return Article(record["title"], blocks, _publisher(Publisher(), fields))


def _block(item: str | Mapping[str, str]) -> Block:
    if isinstance(item, str):
        return Block(item)
    return Block(item["text"], item.get("kind", "paragraph"))


def _publisher(base: Publisher, fields: Mapping[str, Any]) -> Publisher:
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return replace(base, **values)


_CHANGE_KEYS: Final = frozenset(
    {"in", "old", "new", "set", "text", "kind", "insert", "delete", "move", "to", "title",
     "publisher", "signals"}
)  # fmt: skip


def apply_change(
    article: Article, signals: ExternalSignals, change: Mapping[str, Any], *, where: str
) -> tuple[Article, ExternalSignals]:
    """One change of an edit; positions count blocks from 0 as they stand at that step.

    ``{in: N, old: s, new: t}`` replaces ``s`` (which must occur once) in block N;
    ``{set: N, text: t}`` rewrites block N; ``{insert: N, text: t, kind: k}`` puts a new
    block at N; ``{delete: N}``; ``{move: N, to: M}``; ``{title: t}``;
    ``{publisher: {...}}`` sets publisher fields; ``{signals: {...}}`` the feed's.
    """
    unknown = set(change) - _CHANGE_KEYS
    if unknown:  # an unquoted comma in a YAML flow mapping makes a key of what follows it
        raise ValueError(f"{where}: unknown keys {sorted(unknown)} in {dict(change)!r}")
    blocks = list(article.blocks)
    if "in" in change:
        position, old, new = change["in"], change["old"], change["new"]
        text = blocks[position].text
        if text.count(old) != 1:
            raise ValueError(f"{where}: {old!r} is not once in block {position}: {text!r}")
        blocks[position] = Block(text.replace(old, new), blocks[position].kind)
    elif "set" in change:
        blocks[change["set"]] = Block(
            change["text"], change.get("kind", blocks[change["set"]].kind)
        )
    elif "insert" in change:
        blocks.insert(change["insert"], Block(change["text"], change.get("kind", "paragraph")))
    elif "delete" in change:
        del blocks[change["delete"]]
    elif "move" in change:
        blocks.insert(change["to"], blocks.pop(change["move"]))
    elif "title" in change:
        return replace(article, title=change["title"]), signals
    elif "publisher" in change:
        return replace(
            article, publisher=_publisher(article.publisher, change["publisher"])
        ), signals
    elif "signals" in change:
        return article, replace(signals, **change["signals"])
    else:
        raise ValueError(f"{where}: unknown change {dict(change)!r}")
    return replace(article, blocks=tuple(blocks)), signals
