"""The live-blog rules with plain values: updates, edits, paging, re-keyed posts, the ledger."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.article.liveblog import LiveEntry, LiveLayout
from quietedit.decide.liveblog import (
    CONFIRM_GROWTHS,
    LiveLedger,
    judge_live,
    ledger_from_record,
    ledger_to_record,
    live_layouts,
    update_detail,
)
from quietedit.model import JSON, Article, Block

FRAME = ("Winds of up to 90mph have brought down trees across the north-east.",)
Post = tuple[str, str, tuple[str, ...]]  # key, time, paragraphs


def post(n: int, *, text: str | None = None, key: str | None = None) -> Post:
    body = text or f"Post {n}: engineers say {n * 100} homes are still without power tonight."
    return (key or f"block-{n}", f"2026-11-30T{6 + n // 4:02d}:{(n % 4) * 15:02d}:00Z", (body,))


def page(
    posts: list[Post], *, frame: tuple[str, ...] = FRAME, declared: bool = True
) -> tuple[Article, LiveLayout]:
    """The article and layout of a page showing ``posts`` (newest first) under ``frame``."""
    blocks = [Block(text) for text in frame]
    entries = []
    for key, when, paragraphs in posts:
        start = len(blocks)
        blocks.extend(Block(text) for text in paragraphs)
        entries.append(LiveEntry(key, when, start, len(blocks)))
    article = Article(title="Storm Ida live", blocks=tuple(blocks))
    return article, LiveLayout(declared, tuple(entries))


def known(posts: list[Post], **options: bool) -> LiveLedger:
    article, layout = page(posts, **options)  # type: ignore[arg-type]
    ledger = judge_live(None, article, layout).ledger
    assert ledger is not None
    return ledger


def test_a_first_declared_page_is_confirmed_at_once_and_stored_as_any_first_page() -> None:
    article, layout = page([post(2), post(1)])
    judgement = judge_live(None, article, layout)
    assert judgement.action == "not-live"  # the versioning rules store revision 1
    assert judgement.ledger is not None and judgement.ledger.confirmed
    assert judgement.confirmed_now
    assert [e.key for e in judgement.ledger.entries] == ["block-2", "block-1"]


def test_a_page_without_a_stream_leaves_the_ledger_alone() -> None:
    ledger = known([post(2), post(1)])
    judgement = judge_live(ledger, Article("Storm Ida live"), None)
    assert judgement.action == "not-live" and judgement.ledger is ledger


def test_new_posts_alone_are_an_update_counted_in_the_ledger() -> None:
    ledger = known([post(2), post(1)])
    article, layout = page([post(4), post(3), post(2), post(1)])
    judgement = judge_live(ledger, article, layout)
    assert judgement.action == "update"
    assert [e.key for e in judgement.new] == ["block-4", "block-3"]
    assert judgement.ledger is not None and judgement.ledger.updates == 2
    detail = update_detail(article, judgement, url="https://x.example/live", layout=None)
    assert detail["count"] == 2
    assert detail["entries"] == [
        {
            "key": "block-4",
            "published": post(4)[1],
            "blocks": [{"kind": "paragraph", "text": post(4)[2][0]}],
        },
        {
            "key": "block-3",
            "published": post(3)[1],
            "blocks": [{"kind": "paragraph", "text": post(3)[2][0]}],
        },
    ]
    assert "layout" not in detail and "changed" not in detail


def test_a_changed_earlier_post_is_an_edit_even_with_new_posts() -> None:
    ledger = known([post(2), post(1)])
    article, layout = page([post(3), post(2), post(1, text="Post 1 was corrected: 90 homes.")])
    judgement = judge_live(ledger, article, layout)
    assert judgement.action == "edit"
    assert judgement.changed == ("block-1",) and [e.key for e in judgement.new] == ["block-3"]


def test_a_post_deleted_above_the_ones_still_shown_is_an_edit() -> None:
    ledger = known([post(3), post(2), post(1)])
    judgement = judge_live(ledger, *page([post(3), post(1)]))
    assert judgement.action == "edit" and judgement.removed == ("block-2",)


def test_posts_paged_out_below_the_ones_shown_are_no_edit_and_stay_known() -> None:
    ledger = known([post(3), post(2), post(1)])
    judgement = judge_live(ledger, *page([post(5), post(4), post(3)]))
    assert judgement.action == "update"
    assert judgement.paged_out == 2 and judgement.removed == ()
    assert judgement.ledger is not None
    assert [e.key for e in judgement.ledger.entries] == [f"block-{n}" for n in (5, 4, 3, 2, 1)]
    # a paged-out post shown again (the page grew longer) is not new
    again = judge_live(judgement.ledger, *page([post(5), post(4), post(3), post(2)]))
    assert again.action == "unchanged" and again.new == ()


def test_a_changed_frame_is_an_edit() -> None:
    ledger = known([post(2), post(1)])
    frame = ("Winds of up to 100mph have brought down trees across the north-east.",)
    judgement = judge_live(ledger, *page([post(2), post(1)], frame=frame))
    assert judgement.action == "edit" and judgement.frame_changed


def test_a_post_whose_id_changed_but_not_its_text_is_the_same_post() -> None:
    ledger = known([post(2), post(1)])
    renamed = [post(2, key="r1-8fa2"), post(1, key="r1-77c0")]
    judgement = judge_live(ledger, *page(renamed))
    assert judgement.action == "unchanged" and judgement.new == () and judgement.removed == ()


def test_an_undeclared_stream_is_confirmed_after_growing_with_newer_posts_twice() -> None:
    ledger = known([post(2), post(1)], declared=False)
    assert not ledger.confirmed
    first = judge_live(ledger, *page([post(3), post(2), post(1)], declared=False))
    assert first.action == "not-live" and first.ledger is not None and first.ledger.growths == 1
    assert first.ledger.updates == 0  # not counted before the page is a live blog
    second = judge_live(first.ledger, *page([post(4), post(3), post(2), post(1)], declared=False))
    assert CONFIRM_GROWTHS == 2
    assert second.action == "update" and second.confirmed_now
    assert second.ledger is not None and second.ledger.updates == 1


def test_a_pinned_post_above_the_new_ones_does_not_hide_the_growth() -> None:
    pinned = (
        "pinned",
        "2026-11-30T05:00:00Z",
        ("Welcome to our live coverage of the storm today.",),
    )
    ledger = known([pinned, post(2), post(1)], declared=False)
    judgement = judge_live(ledger, *page([pinned, post(3), post(2), post(1)], declared=False))
    assert judgement.ledger is not None and judgement.ledger.growths == 1


def test_an_older_post_appearing_is_no_growth() -> None:
    ledger = known([post(4), post(3)], declared=False)
    judgement = judge_live(ledger, *page([post(4), post(3), post(1)], declared=False))
    assert judgement.ledger is not None and judgement.ledger.growths == 0


def test_the_ledger_reads_back_as_written_and_malformed_parts_are_left_out() -> None:
    _article, layout = page([post(2), post(1)])
    ledger = known([post(2), post(1)]).with_revision(3, layout)
    assert ledger_from_record(ledger_to_record(ledger)) == ledger
    record = ledger_to_record(ledger)
    record["entries"] = [["ok", None, "sha256:x"], ["bad", 5], 7, ["also", 1, "x"]]
    record["layout"] = [["k", None, 4, 2], ["k", None, 0, 1]]
    record["revision"] = -1
    read = ledger_from_record(record)
    assert read is not None
    assert [e.key for e in read.entries] == ["ok"]
    assert [e.key for e in read.layout] == ["k"] and read.revision is None
    assert ledger_from_record("not a ledger") is None


def test_layouts_are_read_from_the_events_that_give_them() -> None:
    article, layout = page([post(2), post(1)])
    judgement = judge_live(None, article, layout)
    detail = update_detail(article, judgement, url="u", layout=layout.entries)
    broken: dict[str, JSON] = {
        **detail,
        "layout": [{"key": "k", "start": 3, "end": 1, "published": None}],
    }
    found = live_layouts([(1, detail), (2, {"count": 1}), (3, broken), (None, detail)])
    assert found == {1: layout.entries}


@given(st.lists(st.integers(min_value=1, max_value=30), unique=True, max_size=12), st.data())
def test_any_sequence_of_pages_keeps_the_ledger_bounded_and_readable(
    first: list[int], data: st.DataObject
) -> None:
    ledger = None
    for _ in range(3):
        shown = data.draw(
            st.lists(st.integers(min_value=1, max_value=30), unique=True, max_size=12)
        )
        posts = [post(n) for n in sorted(shown or first, reverse=True)]
        judgement = judge_live(ledger, *page(posts))
        ledger = judgement.ledger
        assert ledger is not None
        assert ledger_from_record(ledger_to_record(ledger)) == replace(ledger)
        assert len({e.key for e in ledger.entries}) == len(ledger.entries)


@pytest.mark.parametrize("count", [0, 1, 60])
def test_an_event_keeps_the_text_of_at_most_fifty_new_posts_and_counts_them_all(
    count: int,
) -> None:
    ledger = known([post(0)])
    posts = [post(n) for n in range(count, 0, -1)] + [post(0)]
    article, layout = page(posts)
    judgement = judge_live(ledger, article, layout)
    detail = update_detail(article, judgement, url="u", layout=None)
    assert detail["count"] == count
    assert isinstance(detail["entries"], list) and len(detail["entries"]) == min(count, 50)
