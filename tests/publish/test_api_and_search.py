"""The static JSON API (the research export) and the Pagefind search bundles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quietedit.model import JSON
from quietedit.publish.api import publisher_changes
from quietedit.publish.charts import horizontal_bars
from quietedit.publish.search import (
    SHARD_SIZE,
    Shard,
    plan_shards,
    search_available,
    week_start,
)
from tests.publish.conftest import STORIES
from tests.publish.sitecheck import api_days, api_documents


def load(path: Path) -> Any:
    """A JSON file of the site (``Any``: the tests index into it freely)."""
    value = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def test_index_lists_every_document_by_day_with_links_to_its_files(built_site: Path) -> None:
    index = load(built_site / "api/index.json")
    assert index["schema"] == 5 and index["folded"] == []
    assert [d["day"] for d in index["days"]] == ["2026-11-28"]
    documents = api_documents(built_site)
    (day,) = api_days(built_site)
    assert len(documents) == index["days"][0]["published"] == 3
    assert len(day["unpublished"]) + 3 == index["days"][0]["documents"] == 4
    assert [d["id"] for d in documents] == sorted(d["id"] for d in documents)
    for doc in documents:  # the page and the file are named by the id
        assert doc["revisions"] > 1 and (built_site / "articles" / doc["id"]).is_dir()
        assert (built_site / "api/documents" / f"{doc['id']}.json").is_file()
    for doc in day["unpublished"]:  # never edited: named, without pages or a file
        assert not (built_site / "articles" / doc).exists()
        assert not (built_site / "api/documents" / f"{doc}.json").exists()
    assert {d["url"] for d in documents} == {s.url for s in STORIES if len(s.versions) > 1}


def test_a_document_file_carries_the_text_of_what_changed_and_edits_as_block_operations(
    built_site: Path,
) -> None:
    bridge = next(d for d in api_documents(built_site) if d["url"] == STORIES[0].url)
    path = built_site / "api/documents" / f"{bridge['id']}.json"
    record = load(path)
    blocks, revisions = record["blocks"], record["revisions"]
    assert record["data"] == f"documents/2026/11/28/{bridge['id'][-16:-14]}/{bridge['id']}/"
    assert [r["number"] for r in revisions] == [1, 2, 3]
    carried = [tuple(b) for b in blocks if b is not None]
    assert len(carried) == len(set(carried))  # each kind and text once
    texts = [[None if blocks[i] is None else blocks[i][1] for i in r["blocks"]] for r in revisions]
    for revision, story in zip(texts, STORIES[0].versions, strict=True):
        # every revision's blocks in order; the text of those some edit touched, the
        # others (kept in place throughout) left to the archive
        assert len(revision) == len(story[1])
        assert all(text in (None, want) for text, want in zip(revision, story[1], strict=True))
    left_out = {i for i, block in enumerate(blocks) if block is None}
    assert left_out and all(left_out <= set(r["blocks"]) for r in revisions)
    # the address, the headline and the publisher's metadata once, then where they change
    assert "url" not in revisions[0] and "publisher" in revisions[0]
    titles = [r.get("title") for r in revisions]
    assert titles == [STORIES[0].versions[0][0], None, STORIES[0].versions[2][0]]
    assert all("observed_at" not in d for d in record["diffs"])  # the revision has it
    assert record["events"][0]["kind"] == "anomaly"
    diffs = record["diffs"]
    assert [(d["old"], d["new"]) for d in diffs] == [(1, 2), (2, 3)]
    first = diffs[0]
    assert first["diff"]["schema"] == 1 and "facts" in first["classification"]["kinds"]
    assert all("sentences" not in f for f in first["classification"]["findings"].values())
    # each checked signal's seen by name; what it saw is in the revisions' publisher fields
    signals = first["classification"]["signals"]
    assert signals["note"] is False and "feed-updated" not in signals  # not checked
    assert "signal_evidence" not in first["classification"]
    assert all("hash" not in r for r in revisions)  # the archive's revision files carry it
    summary = first["diff"]["summary"]  # without the counts that are 0
    assert summary["changed"] >= 1 and 0 not in summary.values() and "split" not in summary
    changed = next(b for b in first["diff"]["blocks"] if b["op"] == "changed")
    assert "words" not in changed and "text" not in first["diff"]["title"]
    # the operation's positions point at the texts that changed
    assert texts[0][changed["old"]].endswith("48 million euros.")
    assert texts[1][changed["new"]].endswith("84 million euros.")
    # the newest revision's blocks: the corrected cost (changed in 2), the moved paragraph
    # and the two kept ones (from 1, followed through the move), the budget line (added in
    # 3); only the blocks that did not come from revision 1 unchanged are listed
    assert record["provenance"] == [[0, 1, 2], [4, 3, None]]
    raw = path.read_text(encoding="utf-8")
    assert (
        raw.endswith("}\n")
        and raw
        == json.dumps(json.loads(raw), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        + "\n"
    )


def test_sources_file_counts_documents_and_edits(built_site: Path) -> None:
    sources = {s["slug"]: s for s in load(built_site / "api/sources.json")["sources"]}
    assert sources["courier-world"]["documents"] == 2 and sources["courier-world"]["edits"] == 2


def test_sources_are_cut_into_bundles_in_the_order_their_articles_were_first_seen() -> None:
    days = [f"2026/{m:02d}/{d:02d}" for m in range(1, 12) for d in range(1, 29)]
    docs = {f"news-example-org-{n:016x}": ("big", days[n % len(days)]) for n in range(2500)}
    docs["blog-example-com-000000000000000a"] = ("small", "2026/12/02")  # a Wednesday
    shards = plan_shards(docs)
    assert [(s.source, s.part, len(s.documents)) for s in shards] == [
        ("big", "1", SHARD_SIZE),
        ("big", "2", SHARD_SIZE),
        ("big", "3", 452),
        ("big", "last-week", 48),  # first seen from Monday 23 to Sunday 29 November
        ("small", "week", 1),  # first seen in the week of the newest article
    ]
    first_seen = {s.part: sorted(docs[d][1] for d in s.documents) for s in shards[:4]}
    assert first_seen["1"][-1] <= first_seen["2"][0] <= first_seen["2"][-1] <= first_seen["3"][0]
    assert first_seen["3"][-1] < "2026/11/23" <= first_seen["last-week"][0]
    # articles seen this week go to the week's bundle, those of the week before to its
    # own (yesterday's, on a Monday): the older ones stay as they are
    docs["news-example-org-ffffffffffffffff"] = ("big", "2026/11/30")  # Monday
    docs["news-example-org-fffffffffffffffe"] = ("big", "2026/11/29")  # the Sunday before
    again = plan_shards(docs)
    assert again[:3] == shards[:3] and len(again[3].documents) == 49
    assert again[4] == Shard("big", "week", ("news-example-org-ffffffffffffffff",))
    # the next week, the week before's articles join the runs, and this week's are the
    # week before's
    docs["blog-example-com-000000000000000b"] = ("small", "2026/12/07")
    later = plan_shards(docs)
    assert [(s.source, s.part, len(s.documents)) for s in later] == [
        ("big", "1", SHARD_SIZE),
        ("big", "2", SHARD_SIZE),
        ("big", "3", 501),
        ("big", "last-week", 1),
        ("small", "last-week", 1),
        ("small", "week", 1),
    ]
    assert week_start("2026/12/06") == "2026/11/30" and week_start("2026/11/30") == "2026/11/30"


@pytest.mark.skipif(not search_available(), reason="pagefind is not installed")
def test_search_bundles_are_built_per_source_and_named_on_the_search_page(built_site: Path) -> None:
    shards = (built_site / "search/index/shards.txt").read_text(encoding="utf-8").splitlines()
    assert len(shards) == 3
    for line in shards:
        bundle = line.split(" ")[0]
        entry = load(built_site / bundle / "pagefind-entry.json")
        assert entry["languages"]["en"]["page_count"] == len(line.split(" ")) - 1
    page = (built_site / "search/index.html").read_text(encoding="utf-8")
    assert 'data-source="The Example Courier \N{EN DASH} World"' in page
    assert "pagefind-ui.js" in page


def test_chart_labels_are_escaped() -> None:
    svg = horizontal_bars([("<b>x</b>", 3)], chart_id="c", title="T & t", description="d")
    assert "&lt;b&gt;x&lt;/b&gt;" in svg and "T &amp; t" in svg and "<b>" not in svg


def test_a_later_revisions_publisher_is_what_changed_and_replays_to_the_whole() -> None:
    first: dict[str, JSON] = {
        "authors": ["Ana Ruiz"],
        "canonical_url": "https://x.test/a",
        "date_modified": "1",
    }
    second: dict[str, JSON] = {"authors": ["Ana Ruiz", "Li Wei"], "date_modified": "2"}
    third: dict[str, JSON] = {"authors": ["Ana Ruiz", "Li Wei"], "date_modified": "2"}
    assert publisher_changes(first, second) == {
        "authors": ["Ana Ruiz", "Li Wei"],
        "canonical_url": None,  # no longer set
        "date_modified": "2",
    }
    assert publisher_changes(second, third) == {}  # the revision carries none then
    # a reader gets each revision's metadata back by updating the one before
    replayed = {**first, **publisher_changes(first, second)}
    assert {k: v for k, v in replayed.items() if v is not None} == second
