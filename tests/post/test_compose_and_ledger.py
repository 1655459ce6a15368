"""The pure half of ``quietedit post``: which edits, the words of a post, the ledger's form."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.config.settings import PostSettings
from quietedit.post.compose import (
    BLUESKY_LIMIT,
    MASTODON_LIMIT,
    MASTODON_URL_LENGTH,
    PostImage,
    compose_post,
    select_edits,
)
from quietedit.post.ledger import (
    INTENT,
    KEEP,
    POSTED,
    Entry,
    Ledger,
    idempotency_key,
    record_key,
)
from quietedit.publish.pages import Edit

NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)


def edit(
    number: int = 2,
    *,
    kinds: tuple[str, ...] = ("facts",),
    significance: str = "substantive",
    silent: bool | None = True,
    at: str = "2026-11-28T12:00:00Z",
    title: str = "Council approves Elm river bridge",
    old_title: str = "Council approves Elm river bridge",
    document: str = "news-example-org-d2fa1f9b03b58050",
    excerpt: tuple[tuple[str, str], ...] = (("=", "at a cost of "), ("-", "48"), ("+", "84")),
) -> Edit:
    return Edit(
        document, number, at, "2026-11-28T09:00:00Z", title, old_title,
        "https://news.example.org/world/bridge", "courier-world", kinds, significance,
        3, silent, excerpt, "1 paragraph changed", None,
    )  # fmt: skip


def test_an_edit_is_chosen_by_kind_significance_verdict_and_age() -> None:
    settings = PostSettings()  # headline, lede, facts, quote, removed, correction; silent
    chosen = edit()
    others = [
        edit(kinds=("typo", "style")),
        edit(significance="minor"),
        edit(silent=False),
        edit(silent=None),
        edit(at="2026-11-26T17:59:59Z"),  # more than two days before NOW
        edit(at="2026-11-28T18:00:01Z"),  # after NOW: a replay's future
    ]
    assert select_edits([*others, chosen], settings, now=NOW) == [chosen]
    every = PostSettings(verdicts=("silent", "technical", "proper", "unknown"), kinds=("typo",))
    assert len(select_edits(others, every, now=NOW)) == 1  # the typo edit


def test_edits_are_taken_oldest_first_whatever_the_input_order() -> None:
    later, earlier = edit(3, at="2026-11-28T13:00:00Z"), edit(2, at="2026-11-28T11:00:00Z")
    assert select_edits([later, earlier], PostSettings(), now=NOW) == [earlier, later]


def test_a_headline_change_shows_both_headlines() -> None:
    post = compose_post(
        edit(kinds=("headline",), title="Bridge approved despite doubts"),
        link="https://watch.example.org/d/",
        source_name="The Courier",
    )
    assert post.mastodon.splitlines()[:3] == [
        "Silent edit · The Courier",
        "“Bridge approved despite doubts”",
        "Headline was: “Council approves Elm river bridge”",
    ]
    assert post.mastodon.endswith("\nhttps://watch.example.org/d/")
    assert "https://" not in post.bluesky  # the card carries the link
    assert post.card_description == "1 paragraph changed — at a cost of [deleted: 48] [added: 84]"


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(
    title=st.text(min_size=1, max_size=600),
    words=st.text(max_size=2000),
    source=st.text(min_size=1, max_size=200),
    image=st.booleans(),
)
def test_a_post_always_fits_each_network(title: str, words: str, source: str, image: bool) -> None:
    link = "https://watch.example.org/quietedit/articles/" + "x" * 200 + "/diff/2/"
    post = compose_post(
        edit(kinds=("headline", "facts"), title=title, excerpt=(("+", words),)),
        link=link,
        source_name=source,
        image=PostImage(b"\x89PNG", "alt") if image else None,
    )
    if image:  # the address is the text's last line, its byte span a link facet's
        assert post.link_span is not None
        start, end = post.link_span
        shown = post.bluesky.encode()[start:end].decode()
        assert end == len(post.bluesky.encode()) and post.bluesky.endswith("\n" + shown)
        assert shown == "watch.example.org/quietedit/articles/xx…"
    else:
        assert post.link_span is None
    # Mastodon counts any link as 23 characters
    assert len(post.mastodon) - len(link) + MASTODON_URL_LENGTH <= MASTODON_LIMIT
    assert post.mastodon.endswith(link)
    assert len(post.bluesky) <= BLUESKY_LIMIT
    assert len(post.card_title) <= 300 and len(post.card_description) <= 1000


def test_record_keys_are_tids_that_sort_by_time_and_differ_per_edit() -> None:
    alphabet = set("234567abcdefghijklmnopqrstuvwxyz")
    first = record_key("doc/2", at=NOW)
    later = record_key("doc/2", at=NOW + timedelta(microseconds=1))
    other = record_key("doc/3", at=NOW)
    for key in (first, later, other):
        assert len(key) == 13 and set(key) <= alphabet and key[0] in "234567abcdefghij"
    assert first < later and first != other
    assert idempotency_key("doc/2", "mastodon") == idempotency_key("doc/2", "mastodon")
    assert idempotency_key("doc/2", "mastodon") != idempotency_key("doc/3", "mastodon")


def test_the_ledger_reads_back_what_it_wrote_and_drops_what_it_cannot_read() -> None:
    book = Ledger({}).with_entry(
        "doc/2", "mastodon", Entry(POSTED, "2026-11-28T12:00:00Z", "k", 1, "1100", url="u")
    )
    book = book.with_entry("doc/3", "bluesky", Entry(INTENT, "2026-11-28T13:00:00Z", "t", 1))
    record = book.to_record()
    assert Ledger.from_record(record).entries == book.entries
    damaged = {"posts": {**record["posts"], "doc/4": {"mastodon": {"status": "sent"}},  # type: ignore[dict-item]
                         "doc/5": "x", "doc/6": {"myspace": {"status": "posted"}}}}  # fmt: skip
    read = Ledger.from_record(damaged)  # type: ignore[arg-type]
    assert read.entries == book.entries
    assert read.skipped == ("doc/4 (mastodon)", "doc/5", "doc/6 (myspace)")


def test_old_entries_are_pruned_but_never_before_max_age_can_select_them_again() -> None:
    old = (NOW - KEEP - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    book = Ledger({}).with_entry("doc/2", "mastodon", Entry(POSTED, old, "k", 1, "1"))
    book = book.with_entry("doc/3", "mastodon", Entry(POSTED, "2026-11-28T12:00:00Z", "k", 1, "2"))
    assert list(book.pruned(now=NOW).entries) == ["doc/3"]
    # the longest max_age allowed is within KEEP
    assert PostSettings(max_age=KEEP.total_seconds()).max_age == KEEP.total_seconds()


def test_a_thread_starts_at_the_first_post_and_continues_from_the_latest() -> None:
    book = Ledger({})
    for number, post_id in ((2, "a"), (5, "c"), (3, "b")):
        entry = Entry(POSTED, "2026-11-28T12:00:00Z", "k", 1, post_id, cid=post_id + "-cid")
        book = book.with_entry(f"doc/{number}", "bluesky", entry)
    book = book.with_entry("doc/7", "bluesky", Entry(INTENT, "2026-11-28T12:00:00Z", "k", 1))
    thread = book.thread("doc", "bluesky")
    assert thread is not None
    assert thread.root == ("a", "a-cid") and thread.parent == ("c", "c-cid")
    assert book.thread("doc", "mastodon") is None and book.thread("other", "bluesky") is None
