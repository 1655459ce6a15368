"""``quietedit post`` against loopback Mastodon and Bluesky servers: what is sent, the
threads, the images, the posted-ledger across crashes and reruns, rate limits, failures."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from quietedit.archive.store import Archive
from quietedit.model import Article, Block, Publisher
from quietedit.post.ledger import (
    INTENT,
    LEDGER_NAME,
    POSTED,
    UNKNOWN,
    Entry,
    Ledger,
    idempotency_key,
    record_key,
)
from quietedit.post.run import PostReport, post_edits
from quietedit.publish import BuildOptions, build_site
from quietedit.revisions import Observation
from tests.post.conftest import NOW, Clock, bluesky_account, mastodon_account, options
from tests.post.fakes import FakeBluesky, FakeMastodon, png_image
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, T0

BRIDGE = "news-example-org-d2fa1f9b03b58050"
MINISTER = "www-example-net-39161cbcd44e2867"
MAYOR = "blog-example-com-a9d8ffc111486164"
# oldest first: bridge/2 (10:30), minister/2 (10:31), mayor/2 (10:32), bridge/3 (13:30)
ORDER = [f"{BRIDGE}/2", f"{MINISTER}/2", f"{MAYOR}/2", f"{BRIDGE}/3"]


def ledger(data: Path) -> Ledger:
    return Ledger.from_record(Archive(data).read_state(LEDGER_NAME))


def statuses(fake: FakeMastodon) -> list[dict[str, object]]:
    return [r.body for r in fake.requests if r.path == "/api/v1/statuses"]


def records(fake: FakeBluesky) -> list[dict[str, object]]:
    return [r.body for r in fake.requests if r.path.endswith("createRecord")]


def run(
    site: tuple[Path, Path],
    *accounts: object,
    clock: Clock | None = None,
    slept: list[float] | None = None,
    **post: object,
) -> PostReport:
    return post_edits(
        options(site, **post),
        accounts,  # type: ignore[arg-type]
        now=NOW,
        clock=clock or Clock(),
        sleep=(slept.append if slept is not None else lambda s: None),
    )


def test_every_selected_edit_is_posted_once_to_each_network_oldest_first(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    report = run(site, mastodon_account(mastodon), bluesky_account(bluesky))

    assert report.failures == []
    assert [line.split(": ")[1] for line in report.posted] == ORDER + ORDER
    texts = [s["status"] for s in statuses(mastodon)]
    assert all(isinstance(t, str) and len(t) <= 500 for t in texts)
    link = f"{BASE_URL}articles/{BRIDGE}/diff/2/"  # the edit's permalink: its card
    assert str(texts[0]).endswith("\n" + link)
    assert "[deleted: 48] [added: 84]" in str(texts[0])
    assert str(texts[0]).startswith("Silent edit · The Example Courier \N{EN DASH} World\n")
    # every attempt of a post carries its one key
    keys = [r.headers["Idempotency-Key"] for r in mastodon.requests]
    assert keys == [idempotency_key(k, "mastodon") for k in ORDER]
    posts = [r["record"] for r in records(bluesky)]
    assert all(len(p["text"]) <= 300 and link not in p["text"] for p in posts)  # type: ignore[index]
    assert bluesky.sessions == 1  # one login per run
    # the ledger holds every post as made, with what a reply needs
    book = ledger(site[0])
    for key in ORDER:
        m, b = book.entry(key, "mastodon"), book.entry(key, "bluesky")
        assert m is not None and m.status == POSTED and m.post_id
        assert b is not None and b.status == POSTED and b.post_id.startswith("at://")
        assert b.cid == bluesky.records[b.token]["cid"]


def test_a_rerun_and_a_second_process_later_post_nothing_again(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    run(site, mastodon_account(mastodon), bluesky_account(bluesky))
    made = len(mastodon.statuses), len(bluesky.records)

    again = run(site, mastodon_account(mastodon), bluesky_account(bluesky))

    assert again.posted == [] and again.failures == []
    assert (len(mastodon.statuses), len(bluesky.records)) == made == (4, 4)
    assert len(statuses(mastodon)) == 4 and len(records(bluesky)) == 4


def test_a_later_edit_of_an_article_replies_in_its_thread_with_root_and_parent(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    data, out = site
    # a third edit of the bridge story, an hour after the second
    story = STORIES[0]
    title, paragraphs, _ = story.versions[-1]
    Archive(data).append_revision(
        BRIDGE,
        Observation(
            url=story.url,
            observed_at=T0 + timedelta(hours=7),
            article=Article(
                title,
                tuple(Block(p.replace("next week", "on Monday")) for p in paragraphs),
                Publisher(date_published="2026-11-28T06:00:00Z"),
            ),
            extractor="tests/1",
            evidence=None,
        ),
    )
    build_site(BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False))

    run(site, mastodon_account(mastodon), bluesky_account(bluesky), kinds=("facts", "added",
        "correction", "headline", "quote", "style"), significance=("minor", "moderate",
        "substantive"))  # fmt: skip

    book = ledger(data)
    first, second, third = (book.entry(f"{BRIDGE}/{n}", "mastodon") for n in (2, 3, 4))
    assert first and second and third
    by_id = {s["id"]: s for s in mastodon.statuses.values()}
    assert by_id[first.post_id]["in_reply_to_id"] is None
    assert by_id[second.post_id]["in_reply_to_id"] == first.post_id
    assert by_id[third.post_id]["in_reply_to_id"] == second.post_id
    # Bluesky: the root stays the article's first post, the parent is its latest
    b1, b2, b3 = (book.entry(f"{BRIDGE}/{n}", "bluesky") for n in (2, 3, 4))
    assert b1 and b2 and b3
    reply = bluesky.records[b3.token]["value"]["reply"]
    ref = {"$type": "com.atproto.repo.strongRef"}
    assert reply["root"] == {**ref, "uri": b1.post_id, "cid": b1.cid}
    assert reply["parent"] == {**ref, "uri": b2.post_id, "cid": b2.cid}
    assert "reply" not in bluesky.records[b1.token]["value"]
    # another article is a thread of its own
    other = book.entry(f"{MINISTER}/2", "mastodon")
    assert other and by_id[other.post_id]["in_reply_to_id"] is None


def test_the_built_share_images_are_posted_with_their_pages_alt_text(
    site: tuple[Path, Path], mastodon: FakeMastodon
) -> None:
    data, out = site
    build_site(
        BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False)
    )  # with share images: every edit of the fixture is within 7 days of the newest

    run(site, mastodon_account(mastodon))

    uploads = [r for r in mastodon.requests if r.path == "/api/v2/media"]
    assert len(uploads) == len(ORDER)
    page = (out / f"articles/{MINISTER}/diff/2/index.html").read_text("utf-8")
    alt = LexborHTMLParser(page).css_first('meta[property="og:image:alt"]')
    assert alt is not None
    assert uploads[1].body["description"] == alt.attributes["content"]
    image = out / f"articles/{MINISTER}/diff/2/share.png"
    assert uploads[1].body["bytes"] == image.stat().st_size


def test_a_source_missing_from_feeds_yaml_is_named_in_the_post_as_its_pages_name_it(
    site: tuple[Path, Path], mastodon: FakeMastodon
) -> None:
    data, out = site
    # the mayor's blog is not in feeds.yaml: its pages name it by its feed state's name
    Archive(data).write_feed("blog-example-com", {"name": "The Example Blog"})
    build_site(BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False))

    run(site, mastodon_account(mastodon))

    page = (out / f"articles/{MAYOR}/diff/2/index.html").read_text("utf-8")
    alt = LexborHTMLParser(page).css_first('meta[property="og:image:alt"]')
    assert alt is not None and "The Example Blog" in str(alt.attributes["content"])
    uploads = [r for r in mastodon.requests if r.path == "/api/v2/media"]
    assert uploads[2].body["description"] == alt.attributes["content"]
    mayor = statuses(mastodon)[2]
    assert str(mayor["status"]).startswith("Silent edit · The Example Blog\n")


def test_the_image_goes_with_its_alt_text_on_both_networks_and_the_link_as_a_facet(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    data, out = site
    image = png_image(40, 21)
    (out / f"articles/{MINISTER}/diff/2/share.png").write_bytes(image)

    run(site, mastodon_account(mastodon), bluesky_account(bluesky))

    uploads = [r for r in mastodon.requests if r.path == "/api/v2/media"]
    assert len(uploads) == 1 and uploads[0].body["bytes"] == len(image)
    alt = uploads[0].body["description"]
    # the share image's own alt text, as its page's og:image:alt gives it
    assert alt.startswith("Example Net Daily — Politics: “Minister")
    assert "[removed: will not] [added: do not plan to]" in alt and "Verdict: silent" in alt
    book = ledger(data)
    minister = book.entry(f"{MINISTER}/2", "mastodon")
    assert minister is not None
    assert mastodon.statuses[minister.post_id]["media_ids"] == ["9000"]
    others = [s for s in mastodon.statuses.values() if s["id"] != minister.post_id]
    assert all(s["media_ids"] == [] for s in others)
    # Bluesky: the blob uploaded as a PNG, then posted as an image with the same alt text
    # (a link card's thumbnail has none), the page's address a link facet over the text's
    # last line
    blobs = [r for r in bluesky.requests if r.path.endswith("uploadBlob")]
    assert [(b.body["bytes"], b.body["type"]) for b in blobs] == [(len(image), "image/png")]
    entry = book.entry(f"{MINISTER}/2", "bluesky")
    assert entry is not None
    made = bluesky.records[entry.token]["value"]
    assert made["embed"]["$type"] == "app.bsky.embed.images"
    [shown] = made["embed"]["images"]
    assert shown["alt"] == alt
    assert (shown["aspectRatio"]["width"], shown["aspectRatio"]["height"]) == (40, 21)
    assert shown["image"]["mimeType"] == "image/png" and shown["image"]["size"] == len(image)
    link = f"{BASE_URL}articles/{MINISTER}/diff/2/"
    [facet] = made["facets"]
    assert facet["features"] == [{"$type": "app.bsky.richtext.facet#link", "uri": link}]
    text = made["text"].encode()
    start, end = facet["index"]["byteStart"], facet["index"]["byteEnd"]
    assert end == len(text) and text[start - 1 : start] == b"\n"
    assert link.removeprefix("https://").startswith(text[start:end].decode().rstrip("…"))
    assert len(made["text"]) <= 300 and "“Minister" in made["text"]
    # a post without an image has the link card the client built, with no thumbnail
    for rkey, other in bluesky.records.items():
        if rkey != entry.token:
            card = other["value"]["embed"]
            assert card["$type"] == "app.bsky.embed.external"
            assert "thumb" not in card["external"] and "facets" not in other["value"]
            assert card["external"]["uri"].startswith(f"{BASE_URL}articles/")
            assert "[deleted:" in card["external"]["description"] or card["external"]["title"]


def test_an_intent_without_an_outcome_is_settled_without_posting_twice(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    """A run killed after sending, before writing the outcome: its intents are on disk."""
    data, _ = site
    archive = Archive(data)
    sent_at = NOW - timedelta(minutes=20)
    key = f"{BRIDGE}/2"
    token = record_key(key, at=sent_at)
    book = Ledger({}).with_entry(
        key, "mastodon", Entry(INTENT, "2026-11-28T17:40:00Z", idempotency_key(key, "mastodon"), 1)
    )
    book = book.with_entry(key, "bluesky", Entry(INTENT, "2026-11-28T17:40:00Z", token, 1))
    archive.write_state(LEDGER_NAME, book.to_record())
    # what the killed run had made on both servers before it died
    first = run(site, mastodon_account(mastodon), bluesky_account(bluesky), kinds=("quote",))
    assert first.posted  # the minister's edit, an unrelated post
    mastodon.by_key[idempotency_key(key, "mastodon")] = "1100"
    bluesky.records[token] = {"uri": f"at://x/app.bsky.feed.post/{token}", "cid": "bafyx",
                              "value": {"text": "made before the crash"}}  # fmt: skip
    statuses_before, records_before = len(mastodon.statuses), len(bluesky.records)

    report = run(site, mastodon_account(mastodon), bluesky_account(bluesky), kinds=("facts",))

    book = ledger(data)
    m, b = book.entry(key, "mastodon"), book.entry(key, "bluesky")
    assert m is not None and m.status == POSTED and m.post_id == "1100"
    assert b is not None and b.status == POSTED and b.cid == "bafyx"
    # Mastodon was asked again under the same key and answered with the first status;
    # Bluesky was only asked for the record
    assert len(mastodon.statuses) == statuses_before
    assert len(bluesky.records) == records_before
    assert not [r for r in records(bluesky) if r["rkey"] == token]
    assert any(r.path.endswith("getRecord") and r.body["rkey"] == token for r in bluesky.requests)
    assert f"bluesky: {key}: " in "\n".join(report.posted)


def test_a_bluesky_intent_with_no_record_is_posted_under_its_own_key(
    site: tuple[Path, Path], bluesky: FakeBluesky
) -> None:
    data, _ = site
    key = f"{BRIDGE}/2"
    token = record_key(key, at=NOW - timedelta(hours=5))
    book = Ledger({}).with_entry(key, "bluesky", Entry(INTENT, "2026-11-28T13:00:00Z", token, 1))
    Archive(data).write_state(LEDGER_NAME, book.to_record())

    run(site, bluesky_account(bluesky), kinds=("facts",))

    assert list(bluesky.records) == [token]
    entry = ledger(data).entry(key, "bluesky")
    assert entry is not None and entry.status == POSTED and entry.attempts == 2


def test_a_mastodon_intent_older_than_the_idempotency_window_is_never_sent_again(
    site: tuple[Path, Path], mastodon: FakeMastodon
) -> None:
    data, _ = site
    key = f"{BRIDGE}/2"
    old = Entry(INTENT, "2026-11-28T16:30:00Z", idempotency_key(key, "mastodon"), 1)
    Archive(data).write_state(LEDGER_NAME, Ledger({}).with_entry(key, "mastodon", old).to_record())

    report = run(site, mastodon_account(mastodon), kinds=("facts",))
    again = run(site, mastodon_account(mastodon), kinds=("facts",))

    assert mastodon.requests == []
    entry = ledger(data).entry(key, "mastodon")
    assert entry is not None and entry.status == UNKNOWN
    assert "outcome unknown" in report.unknown[0] and "check the account" in report.unknown[0]
    assert again.unknown and key in again.unknown[0]  # reported on every run


def test_a_rate_limit_is_waited_out_when_short_and_ends_the_turn_when_long(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    data, _ = site
    mastodon.fail_next(429, headers={"Retry-After": "3"})
    bluesky.fail_next(429, headers={"Retry-After": "900", "RateLimit-Reset": "0"})
    slept: list[float] = []

    report = run(site, mastodon_account(mastodon), bluesky_account(bluesky), slept=slept)

    assert slept == [3.0]  # Mastodon's wait, within max_wait (5 s here)
    assert len(mastodon.statuses) == 4
    assert bluesky.records == {}  # 900 s is past max_wait: Bluesky waits for the next run
    assert report.waiting == 4
    assert any("bluesky: createRecord: 429" in f and "900 s" in f for f in report.failures)
    book = ledger(data)
    assert all(book.entry(k, "bluesky") is None for k in ORDER)  # a 429 made nothing

    later = run(site, mastodon_account(mastodon), bluesky_account(bluesky))
    assert len(bluesky.records) == 4 and later.failures == []


def test_a_refused_post_is_recorded_and_the_others_are_posted(
    site: tuple[Path, Path], mastodon: FakeMastodon
) -> None:
    data, _ = site
    mastodon.fail_next(422, error="Validation failed: Text character limit of 500 exceeded")
    mastodon.fail_next(500)

    report = run(site, mastodon_account(mastodon))

    assert len(mastodon.statuses) == 2
    assert [f.split(": ", 1)[0] for f in report.failures] == ORDER[:2]
    assert "refused with 422: Validation failed" in report.failures[0]
    assert "outcome unknown" in report.failures[1]
    book = ledger(data)
    refused, unsure = book.entry(ORDER[0], "mastodon"), book.entry(ORDER[1], "mastodon")
    assert refused is not None and refused.status == "failed" and refused.attempts == 1
    assert unsure is not None and unsure.status == INTENT
    # the next run tries both again, under their keys
    run(site, mastodon_account(mastodon))
    assert len(mastodon.statuses) == 4
    assert json.loads(json.dumps(ledger(data).to_record())) == ledger(data).to_record()


def test_max_posts_leaves_the_rest_for_the_next_run(
    site: tuple[Path, Path], mastodon: FakeMastodon
) -> None:
    report = run(site, mastodon_account(mastodon), max_posts=3)
    assert len(mastodon.statuses) == 3 and report.waiting == 1
    later = run(site, mastodon_account(mastodon), max_posts=3)
    assert len(later.posted) == 1 and later.posted[0].split(": ")[1] == ORDER[3]


def test_a_refused_token_stops_that_network_and_keeps_its_posts_for_later(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    revoked = mastodon_account(mastodon, token="revoked")  # noqa: S106
    report = run(site, revoked, bluesky_account(bluesky))

    assert len(bluesky.records) == 4  # the other network goes on
    assert len(statuses(mastodon)) == 1  # the first refusal ends Mastodon's turn
    assert "the access token was refused (401)" in report.failures[0]
    assert all(ledger(site[0]).entry(k, "mastodon") is None for k in ORDER)
    assert report.waiting == 4


def test_a_mastodon_intent_sent_again_keeps_the_time_it_was_first_sent(
    site: tuple[Path, Path], mastodon: FakeMastodon
) -> None:
    # sent at 17:20 with no answer; sent again at 18:00, again with no answer: the server
    # keeps the key for an hour from 17:20, so at 18:30 it is not sent a third time
    data, _ = site
    key = f"{BRIDGE}/2"
    first = Entry(INTENT, "2026-11-28T17:20:00Z", idempotency_key(key, "mastodon"), 1)
    Archive(data).write_state(
        LEDGER_NAME, Ledger({}).with_entry(key, "mastodon", first).to_record()
    )
    mastodon.fail_next(500)

    run(site, mastodon_account(mastodon), kinds=("facts",), max_posts=1)
    entry = ledger(data).entry(key, "mastodon")
    assert len(statuses(mastodon)) == 1
    assert entry is not None and (entry.status, entry.at, entry.attempts) == (
        INTENT,
        "2026-11-28T17:20:00Z",
        2,
    )
    later = Clock(NOW + timedelta(minutes=30))
    run(site, mastodon_account(mastodon), clock=later, kinds=("facts",), max_posts=1)
    assert len(statuses(mastodon)) == 1
    entry = ledger(data).entry(key, "mastodon")
    assert entry is not None and entry.status == UNKNOWN


def test_a_bluesky_record_key_follows_from_the_edit_alone(
    site: tuple[Path, Path], bluesky: FakeBluesky
) -> None:
    # a rerun of an older commit, whose ledger lacks this run's posts, asks for the same
    # record keys: the server refuses a second record under a key it holds
    data, _ = site
    run(site, bluesky_account(bluesky), kinds=("facts",), max_posts=1)
    keys = [r.body["rkey"] for r in bluesky.requests if r.path.endswith("createRecord")]
    Archive(data).write_state(LEDGER_NAME, Ledger({}).to_record())
    run(site, bluesky_account(bluesky), clock=Clock(NOW + timedelta(hours=1)), max_posts=1)
    again = [r.body["rkey"] for r in bluesky.requests if r.path.endswith("createRecord")]
    assert len(keys) == 1 and again == keys * 2
    # refused, the key is looked up: the record found is the post, and its thread goes on
    assert list(bluesky.records) == keys
    entry = ledger(data).entry(ORDER[0], "bluesky")
    assert entry is not None and entry.status == POSTED and entry.token == keys[0]
    assert entry.post_id == bluesky.records[keys[0]]["uri"]
