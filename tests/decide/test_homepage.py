"""Homepage headline histories with plain values: A/B tests, retitles, links leaving."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from quietedit.decide.homepage import (
    HOMEPAGE_MEMORY,
    MAX_HEADLINES,
    HeadlineHistory,
    headline_history,
    history_from_record,
    history_rows,
    history_to_record,
)
from quietedit.feeds.homepage import HomepageLink
from quietedit.model import JSON

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
URL = "https://news.example.org/news/2026/11/30/bridge"


def polls(*pages: dict[str, str]) -> tuple[HeadlineHistory, list[list[str]]]:
    """Hourly polls of pages given as {url: headline}; the history and the links closed."""
    history = None
    closed = []
    for hour, page in enumerate(pages):
        links = [HomepageLink(url, text) for url, text in page.items()]
        history, gone = headline_history(history, links, now=T0 + hour * HOUR)
        closed.append([link.url for link in gone])
    assert history is not None
    return history, closed


def rows(history: HeadlineHistory) -> dict[str, list[tuple[str, int, int]]]:
    """Per link: (headline, hour first seen, hour last seen)."""
    return {
        url: [(text, (a - T0) // HOUR, (b - T0) // HOUR) for text, a, b in found]
        for url, _, found in history_rows(history)
    }


def test_an_ab_test_stores_each_headline_once_with_its_first_and_last_sighting() -> None:
    history, _ = polls(
        *({URL: "Bridge closed"} if h % 2 == 0 else {URL: "Bridge shut"} for h in range(6))
    )
    assert rows(history) == {URL: [("Bridge closed", 0, 4), ("Bridge shut", 1, 5)]}


def test_a_retitle_ends_the_old_headline_at_the_last_poll_that_showed_it() -> None:
    history, _ = polls(
        {URL: "Old title"}, {URL: "Old title"}, {URL: "New title"}, {URL: "New title"}
    )
    assert rows(history) == {URL: [("Old title", 0, 1), ("New title", 2, 3)]}


def test_a_link_that_leaves_and_comes_back_continues_its_history() -> None:
    other = "https://news.example.org/news/2026/11/30/other"
    history, closed = polls({URL: "A"}, {other: "B"}, {URL: "A", other: "B"})
    assert rows(history)[URL] == [("A", 0, 2)]
    assert closed == [[], [], []]


def test_a_link_gone_longer_than_the_memory_is_closed_once_with_its_history() -> None:
    history, _ = polls({URL: "Bridge closed"}, {URL: "Bridge shut"})
    later = T0 + HOUR + HOMEPAGE_MEMORY + HOUR
    after, closed = headline_history(history, [], now=later)
    assert [c.url for c in closed] == [URL]
    assert closed[0].detail("front") == {
        "source": "front",
        "headlines": [
            {
                "text": "Bridge closed",
                "first_seen": "2026-11-30T06:00:00Z",
                "last_seen": "2026-11-30T06:00:00Z",
            },
            {
                "text": "Bridge shut",
                "first_seen": "2026-11-30T07:00:00Z",
                "last_seen": "2026-11-30T07:00:00Z",
            },
        ],
    }
    assert history_rows(after) == []
    _, again = headline_history(after, [], now=later + HOUR)
    assert again == ()


def test_an_unchanged_poll_changes_nothing_but_the_time_of_the_poll() -> None:
    history, _ = polls({URL: "A", URL + "-2": "B"}, {URL: "A", URL + "-2": "B"})
    first, _ = polls({URL: "A", URL + "-2": "B"})
    assert history_to_record(history)["links"] == history_to_record(first)["links"]


def test_headlines_per_link_are_bounded() -> None:
    history, _ = polls(*({URL: f"Headline number {n}"} for n in range(MAX_HEADLINES + 5)))
    texts = [text for text, _, _ in rows(history)[URL]]
    assert len(texts) == MAX_HEADLINES and texts[-1] == f"Headline number {MAX_HEADLINES + 4}"


def test_the_record_reads_back_and_malformed_links_start_afresh() -> None:
    history, _ = polls({URL: "A"}, {URL: "B"}, {})
    record = history_to_record(history)
    assert history_from_record(record) == history
    broken: dict[str, JSON] = {
        "polled_at": record["polled_at"],
        "links": {
            URL: {"headlines": [["A", "not a time", None]], "shown": 0, "left": None},
            URL + "-2": {"headlines": [["A", "2026-11-30T06:00:00Z", None]], "shown": 4},
            URL + "-3": {"headlines": [["A", "2026-11-30T06:00:00Z", None]], "shown": None},
            URL + "-4": {"headlines": [["A", "2026-11-30T06:00:00Z", None]], "shown": 0},
        },
    }
    read = history_from_record(broken)
    assert read is not None and list(read.links or {}) == [URL + "-4"]
    assert history_from_record(None) is None and history_from_record([1]) is None


@given(
    st.lists(
        st.dictionaries(st.sampled_from(["a", "b", "c"]), st.sampled_from(["X", "Y", "Z"])),
        max_size=12,
    )
)
def test_any_series_of_polls_keeps_sightings_ordered_and_readable(
    pages: list[dict[str, str]],
) -> None:
    history, _ = polls({}, *({f"{URL}-{k}": v for k, v in page.items()} for page in pages))
    assert history_from_record(history_to_record(history)) == history
    for _, _, found in history_rows(history):
        assert len({text for text, _, _ in found}) == len(found)
        assert all(first <= last for _, first, last in found)
